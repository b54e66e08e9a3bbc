"""Hashing a domain-separated message to a point whose discrete log nobody knows."""

from __future__ import annotations

import hashlib

from p2p_dominoes.mental.encoding import frame
from p2p_dominoes.mental.errors import GroupError
from p2p_dominoes.mental.group import Point, from_uniform, is_valid
from p2p_dominoes.words import phrase


def hash_to_point(domain: bytes, message: bytes) -> Point:
    """`from_uniform(SHA-512(frame(domain) ‖ frame(message))[:32])`, checked valid."""
    raw = from_uniform(hashlib.sha512(frame(domain) + frame(message)).digest()[:32])
    if not is_valid(raw):
        raise GroupError(phrase("mental.why.hash_curve_gave_invalid_point"))
    return Point.from_libsodium(raw)
