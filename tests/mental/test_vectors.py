"""Test vectors: the code reproduces protocol/vectors/mental_v1.json byte for byte, and the
vectors agree with the spec's formulas recomputed here without the package."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from types import ModuleType

from nacl.bindings import crypto_core_ed25519_from_uniform

from p2p_dominoes.mental import (
    DecryptionShare,
    HandContext,
    HandRecord,
    KeyCommit,
    KeyReveal,
    SecretReveal,
    ShuffleStep,
    TileReveal,
    audit,
)

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors" / "mental_v1.json"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen", ROOT / "scripts" / "gen_mental_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _frame(data: bytes) -> bytes:
    return len(data).to_bytes(4, "big") + data


def _hash_to_point(domain: bytes, message: bytes) -> str:
    digest = hashlib.sha512(_frame(domain) + _frame(message)).digest()
    return bytes(crypto_core_ed25519_from_uniform(digest[:32])).hex()


def test_code_reproduces_vectors_byte_for_byte() -> None:
    assert _script().render() == VECTORS.read_text()


def test_tile_points_and_generators_follow_the_spec() -> None:
    vectors = json.loads(VECTORS.read_text())
    for entry in vectors["tile_points"]:
        expected = _hash_to_point(b"p2p-dominoes/mental/v1/tile", entry["tile"].encode())
        assert entry["point"] == expected
    for entry in vectors["generators"]:
        expected = _hash_to_point(
            b"p2p-dominoes/mental/v1/shuffle-generator", entry["index"].to_bytes(4, "big")
        )
        assert entry["point"] == expected


def test_vector_messages_decode_and_audit() -> None:
    hand = json.loads(VECTORS.read_text())["hand"]
    c = hand["context"]
    ctx = HandContext(bytes.fromhex(c["table_id_hex"]), c["hand_number"], c["seats"])
    assert ctx.to_bytes().hex() == c["encoding"]
    keys = hand["keys"]
    record = HandRecord(
        ctx=ctx,
        commits=tuple(
            KeyCommit.from_bytes(bytes.fromhex(k["key_commit_message"]), k["seat"]) for k in keys
        ),
        reveals=tuple(
            KeyReveal.from_bytes(bytes.fromhex(k["key_reveal_message"]), k["seat"]) for k in keys
        ),
        shuffles=tuple(
            ShuffleStep.from_bytes(bytes.fromhex(s["shuffle_message"]), s["seat"])
            for s in hand["shuffles"]
        ),
        shares=tuple(
            DecryptionShare.from_bytes(bytes.fromhex(s["share_message"]), s["seat"])
            for s in hand["deal"]["shares"]
        ),
        tile_reveals=tuple(
            TileReveal.from_bytes(bytes.fromhex(r["tile_reveal_message"]), r["seat"])
            for r in hand["tile_reveals"]
        ),
        secrets=tuple(
            SecretReveal.from_bytes(bytes.fromhex(m), seat)
            for seat, m in enumerate(hand["secret_reveal_messages"])
        ),
    )
    report = audit(record)
    assert report.ok and report.tiles is not None
    from p2p_dominoes.mental import tile_text

    assert [tile_text(t) for t in report.tiles] == hand["audit_tiles"]
