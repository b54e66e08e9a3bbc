"""Session conformance vectors: one 2-seat hand regenerates byte for byte and verifies clean.

The vectors (protocol/vectors/session_hand_v1.json and .p2pd) are what a second implementation
checks itself against, so these tests also recompute what the spec defines without the package
where that is cheap: message hashes, the chain of heads and the transcript file framing.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from p2p_dominoes.session.verify import verify_transcript

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors" / "session_hand_v1.json"
TRANSCRIPT = ROOT / "protocol" / "vectors" / "session_hand_v1.p2pd"


@cache
def _script() -> ModuleType:
    path = ROOT / "scripts" / "gen_session_vectors.py"
    spec = importlib.util.spec_from_file_location("gen_session_vectors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def _rendered() -> tuple[str, bytes]:
    text, data = _script().render()
    assert isinstance(text, str) and isinstance(data, bytes)
    return text, data


def _vectors() -> dict[str, Any]:
    loaded = json.loads(VECTORS.read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_the_hand_regenerates_byte_for_byte() -> None:
    text, data = _rendered()
    assert text == VECTORS.read_text()
    assert data == TRANSCRIPT.read_bytes()


def test_the_transcript_verifies_clean_with_the_recorded_head_and_scores() -> None:
    vectors = _vectors()
    report = verify_transcript(TRANSCRIPT.read_bytes())
    assert report.ok, report.failure
    assert report.hands == 1
    assert report.messages == len(vectors["messages"])
    assert report.head.hex() == vectors["head"]
    assert list(report.scores) == vectors["scores"]


def test_hashes_and_heads_follow_the_spec() -> None:
    """PROTOCOL.md §6.1: each hash is SHA-256 of a prefix and the whole envelope; heads chain."""
    vectors = _vectors()
    head = hashlib.sha256(
        b"p2p-dominoes v1 genesis head\0" + bytes.fromhex(vectors["table_id"])
    ).hexdigest()
    for message in vectors["messages"]:
        assert message["head"] == head
        envelope = bytes.fromhex(message["envelope"])
        head = hashlib.sha256(b"p2p-dominoes v1 message hash\0" + envelope).hexdigest()
        assert message["hash"] == head
        # The envelope's fields 2 (seat) and 4 (type) are one-byte ints after the header.
        assert envelope[0] == 0x97 and envelope[1] == 0x01
        assert envelope[20] == message["seat"]
        assert envelope[21 + 34] == message["type"]
    assert vectors["head"] == head


def test_the_file_is_the_messages_framed_in_order() -> None:
    """PROTOCOL.md §8: magic, then one (kind 01, u32 length, envelope) record per message."""
    vectors = _vectors()
    framed = b"".join(
        b"\x01" + len(e).to_bytes(4, "big") + e
        for e in (bytes.fromhex(m["envelope"]) for m in vectors["messages"])
    )
    data = TRANSCRIPT.read_bytes()
    assert data == b"P2PD-TX\x01" + framed
    assert hashlib.sha256(data).hexdigest() == vectors["transcript_file_sha256"]


def test_the_hand_shows_every_turn_message() -> None:
    names = {m["name"] for m in _vectors()["messages"]}
    assert {"play", "draw", "draw_share", "pass", "hand_reveal", "secret_reveal"} <= names


def test_the_table_code_follows_the_spec() -> None:
    """PROTOCOL.md §7.3 from the vectors alone: commitments, nonces revealed, code and words."""
    vectors = _vectors()
    nonces = []
    for seat in vectors["seats"]:
        nonce = hashlib.sha256(seat["table_nonce_label"].encode()).digest()
        assert nonce.hex() == seat["table_nonce"]
        key = bytes.fromhex(seat["public_key"])
        commitment = hashlib.sha256(b"p2p-dominoes v1 seat commitment\0" + key + nonce)
        assert commitment.hexdigest() == seat["commitment"]
        nonces.append(nonce)
    genesis_hash = bytes.fromhex(vectors["messages"][0]["hash"])
    for seat, nonce in enumerate(nonces):  # each genesis_sign reveals its seat's nonce last
        assert vectors["messages"][1 + seat]["envelope"].endswith(
            "c420" + nonce.hex() + "c440" + vectors["messages"][1 + seat]["envelope"][-128:]
        )
    code = hashlib.sha256(b"p2p-dominoes v1 table code\0" + genesis_hash + b"".join(nonces))
    value = code.digest()[:4]
    assert value.hex() == vectors["table_code"]["value"]
    words = ROOT / "p2p_dominoes" / "session" / "table_code_words.txt"
    lines = [line.split() for line in words.read_text("utf-8").splitlines() if line[:1].isdigit()]
    assert [int(line[0]) for line in lines] == list(range(256))
    assert " ".join(lines[b][1] for b in value) == vectors["table_code"]["en"]
    assert " ".join(lines[b][2] for b in value) == vectors["table_code"]["ru"]
    assert "-".join(f"{b:03d}" for b in value) == vectors["table_code"]["digits"]
