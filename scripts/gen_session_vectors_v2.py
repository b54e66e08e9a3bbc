#!/usr/bin/env python3
"""Write protocol/vectors/session_hand_v2.json and .p2pd: one complete 4-seat hand, protocol v2.

Four peers play one hand of `house` with two doubles a turn (`two_doubles`) through `LocalTable`
from fixed inputs, as `gen_session_vectors.py` does for version 1: identities from
`SHA-256(label)`, the fixed table id, one `DeterministicRandom` per seat, seeded bots. The whole
set is dealt (4 × 7), so the lead claims (PROTOCOL.md §10.5) start at the bound [1|1]: the seats
before the holder of [0|0] send nil claims, the holder reveals it, and the phase stops early. The
hand also has a `skip` (type 27). A second implementation of PROTOCOL.md version 2 must accept the
transcript and, fed the same inputs and actions, produce it byte for byte.

Run from the repository root: `PYTHONPATH=. python scripts/gen_session_vectors_v2.py`;
`--check` exits 1 if the files on disk differ; `--search` lists candidate seeds.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import Rules
from p2p_dominoes.mental import TileReveal, tile_text
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.events import Event, HandEnded
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
OUTPUT = VECTORS / "session_hand_v2.json"
TRANSCRIPT = VECTORS / "session_hand_v2.p2pd"

TABLE_ID = bytes(range(16))
NAMES = ("alice", "bob", "carol", "dave")
RULES = {"base": "house", "name": "house-two-doubles", "two_doubles": True}
"""The table's rules file (a preset with overrides, docs/rules.md)."""
RNG_LABEL = "session-vector-v2/{variant}/seat/{seat}"
NONCE_LABEL = "session-vector-v2/table-nonce/{seat}"
VARIANT = 0
"""Picks the deal (through every seat's randomness): chosen so that [0|0] is not seat 3's."""
BOT_SEED = 0
"""The bots' seed: chosen so that the hand has a skip (see `--search`)."""
MAX_HANDS = 1


def identities() -> list[Identity]:
    return [Identity.from_private_bytes(hashlib.sha256(x.encode()).digest()) for x in NAMES]


def nonces() -> list[bytes]:
    return [hashlib.sha256(NONCE_LABEL.format(seat=s).encode()).digest() for s in range(4)]


def play_hand(variant: int = VARIANT, bot_seed: int = BOT_SEED) -> tuple[LocalTable, list[Event]]:
    """Play the vector hand; the table and seat 0's events."""
    seen: list[Event] = []
    table = LocalTable.create(
        Rules.from_dict(RULES),
        NAMES,
        [random_bot, greedy_bot, random_bot, greedy_bot],
        seed=bot_seed,
        max_hands=MAX_HANDS,
        rngs=[
            DeterministicRandom(RNG_LABEL.format(variant=variant, seat=s).encode())
            for s in range(4)
        ],
        identities=identities(),
        table_id=TABLE_ID,
        nonces=nonces(),
        protocol_version=2,  # the v2 vector: it must keep its bytes
    )
    table.on_event = lambda seat, event: seen.append(event) if seat == 0 else None
    table.run()
    return table, seen


def _claims(table: LocalTable) -> list[dict[str, Any]]:
    out = []
    for envelope in table.sessions[0].transcript:
        if envelope.type is msg.LEAD_CLAIM:
            data = envelope.field("reveal")
            shown = None
            if isinstance(data, bytes):
                shown = tile_text(TileReveal.from_bytes(data, envelope.seat).tile)
            out.append({"seat": envelope.seat, "reveal": shown})
    return out


def build() -> tuple[dict[str, Any], bytes]:
    """The vectors as a JSON-ready object, and the transcript file's bytes."""
    table, seen = play_hand()
    ended = [e for e in seen if isinstance(e, HandEnded)]
    if any(table.blames) or len(set(table.heads())) != 1 or len(ended) != 1:
        raise RuntimeError(f"the vector hand did not run cleanly: {table.blames}")
    transcript = table.sessions[0].transcript
    data = transcript.to_bytes()
    report = verify_transcript(data)
    if not report.ok or not report.complete:
        raise RuntimeError(f"the vector transcript does not verify: {report.failure}")
    claims = _claims(table)
    names = [e.type.name for e in transcript]
    if "skip" not in names or len(claims) == 4 or claims[0]["reveal"] is not None:
        raise RuntimeError("the vector hand lacks a nil claim, an early stop or a skip")
    messages = [
        {
            "index": entry.index,
            "seat": entry.envelope.seat,
            "type": entry.envelope.type.code,
            "name": entry.envelope.type.name,
            "head": entry.envelope.head.hex(),
            "hash": entry.hash.hex(),
            "envelope": entry.encoded.hex(),
        }
        for entry in transcript.entries
    ]
    record = ended[0].record
    vectors = {
        "description": (
            "One complete 4-seat hand of `house` with two doubles a turn, protocol version 2 "
            "(PROTOCOL.md §10): nil lead claims, an early stop at [0|0], and a skip. Generated "
            "by scripts/gen_session_vectors_v2.py; the transcript file is session_hand_v2.p2pd."
        ),
        "protocol_version": 2,
        "rules": RULES,
        "max_hands": MAX_HANDS,
        "table_id": TABLE_ID.hex(),
        "seats": [
            {
                "seat": s,
                "name": NAMES[s],
                "identity_label": NAMES[s],
                "public_key": identity.public.raw.hex(),
                "rng_seed": RNG_LABEL.format(variant=VARIANT, seat=s),
                "table_nonce_label": NONCE_LABEL.format(seat=s),
            }
            for s, identity in enumerate(identities())
        ],
        "bots": {"strategies": ["random", "greedy", "random", "greedy"], "seed": BOT_SEED},
        "claims": claims,
        "messages": messages,
        "head": transcript.head.hex(),
        "transcript_file_sha256": hashlib.sha256(data).hexdigest(),
        "deal": {
            "opener": record.opener,
            "hands": [[t.text for t in tiles] for tiles in record.hands],
        },
        "result": {"end": ended[0].result.end.value, "points": list(ended[0].result.points)},
        "scores": list(ended[0].scores),
    }
    return vectors, data


def render() -> tuple[str, bytes]:
    """The JSON file's exact text and the transcript file's exact bytes."""
    vectors, data = build()
    return json.dumps(vectors, indent=1, sort_keys=True) + "\n", data


def _search(limit: int = 6) -> None:
    """Print, per deal variant and bot seed, the claims and whether the hand has a skip."""
    for variant in range(limit):
        for seed in range(limit):
            table, _ = play_hand(variant, seed)
            names = [e.type.name for e in table.sessions[0].transcript]
            print(variant, seed, [c["reveal"] for c in _claims(table)], "skip" in names)


def main(argv: list[str]) -> int:
    """Write the vectors, or with --check compare them with the files."""
    if "--search" in argv:
        _search()
        return 0
    text, data = render()
    if "--check" in argv:
        same = OUTPUT.read_text() == text and TRANSCRIPT.read_bytes() == data
        return 0 if same else 1
    OUTPUT.write_text(text)
    TRANSCRIPT.write_bytes(data)
    print(f"wrote {OUTPUT} and {TRANSCRIPT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
