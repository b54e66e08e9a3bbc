#!/usr/bin/env python3
"""Write protocol/vectors/session_hand_v2_fives.json and .p2pd: a 2-seat Fives hand, protocol v2,
with a double laid along (the play's optional fifth field `along`, PROTOCOL.md §10.2).

Two peers play one hand of `fives` (doubles across or along by choice, points scored during play)
through `LocalTable` from fixed inputs, as `gen_session_vectors_v2.py` does: identities from
`SHA-256(label)`, the fixed table id, one `DeterministicRandom` per seat, seeded greedy bots (which
lay a double along when that scores more). A second implementation of PROTOCOL.md version 2 must
accept the transcript, read the along play, score each placement as the vector says, and, fed the
same inputs and actions, produce it byte for byte.

Run from the repository root: `PYTHONPATH=. python scripts/gen_session_vectors_v2_fives.py`;
`--check` exits 1 if the files on disk differ; `--search` lists candidate seeds.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import Rules, actions_scored, replay
from p2p_dominoes.mental import TileReveal, tile_text
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.events import Event, HandEnded
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
OUTPUT = VECTORS / "session_hand_v2_fives.json"
TRANSCRIPT = VECTORS / "session_hand_v2_fives.p2pd"

TABLE_ID = bytes(range(16))
NAMES = ("alice", "bob")
RULES = {"base": "fives", "name": "fives"}
"""The table's rules file (the preset, docs/rules.md)."""
RNG_LABEL = "session-vector-v2-fives/{variant}/seat/{seat}"
NONCE_LABEL = "session-vector-v2-fives/table-nonce/{seat}"
VARIANT = 5
"""Picks the deal (through every seat's randomness): chosen so that both seats lay a double
along."""
BOT_SEED = 0
"""The bots' seed."""
STRATEGIES = ("greedy", "greedy")
MAX_HANDS = 1


def identities() -> list[Identity]:
    return [Identity.from_private_bytes(hashlib.sha256(x.encode()).digest()) for x in NAMES]


def nonces() -> list[bytes]:
    return [hashlib.sha256(NONCE_LABEL.format(seat=s).encode()).digest() for s in range(len(NAMES))]


def play_hand(variant: int = VARIANT, bot_seed: int = BOT_SEED) -> tuple[LocalTable, list[Event]]:
    """Play the vector hand; the table and seat 0's events."""
    seen: list[Event] = []
    table = LocalTable.create(
        Rules.from_dict(RULES),
        NAMES,
        [greedy_bot, greedy_bot],
        seed=bot_seed,
        max_hands=MAX_HANDS,
        rngs=[
            DeterministicRandom(RNG_LABEL.format(variant=variant, seat=s).encode())
            for s in range(len(NAMES))
        ],
        identities=identities(),
        table_id=TABLE_ID,
        nonces=nonces(),
        protocol_version=2,  # a v2 vector: new tables are v3, this one must keep its bytes
    )
    table.on_event = lambda seat, event: seen.append(event) if seat == 0 else None
    table.run()
    return table, seen


def _along_plays(table: LocalTable) -> list[dict[str, Any]]:
    """The plays that say `along` (a double laid lengthwise): message index, seat, tile."""
    out = []
    for entry in table.sessions[0].transcript.entries:
        envelope = entry.envelope
        if envelope.type is msg.PLAY and envelope.field("along") is True:
            reveal = TileReveal.from_bytes(envelope.field("reveal"), envelope.seat)
            out.append(
                {"index": entry.index, "seat": envelope.seat, "tile": tile_text(reveal.tile)}
            )
    return out


def actions_scored_of(record: Any) -> list[dict[str, Any]]:
    """What each action of the hand scored (`replay --json`'s `actions_scored`)."""
    return list(actions_scored(replay(record).steps))


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
    along = _along_plays(table)
    result = ended[0].result
    if not along or not any(result.move_points):
        raise RuntimeError("the vector hand lacks an along play or a scoring placement")
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
            "One complete 2-seat hand of `fives`, protocol version 2 (PROTOCOL.md §10.2): a "
            "double laid along (the play's fifth field), points scored during play. Generated "
            "by scripts/gen_session_vectors_v2_fives.py; the transcript file is "
            "session_hand_v2_fives.p2pd."
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
        "bots": {"strategies": list(STRATEGIES), "seed": BOT_SEED},
        "along_plays": along,
        "messages": messages,
        "head": transcript.head.hex(),
        "transcript_file_sha256": hashlib.sha256(data).hexdigest(),
        "deal": {
            "opener": record.opener,
            "hands": [[t.text for t in tiles] for tiles in record.hands],
        },
        "result": {
            "end": result.end.value,
            "points": list(result.points),
            "move_points": list(result.move_points),
            "bonuses": list(result.bonuses),
        },
        "actions_scored": actions_scored_of(record),
        "scores": list(ended[0].scores),
    }
    return vectors, data


def render() -> tuple[str, bytes]:
    """The JSON file's exact text and the transcript file's exact bytes."""
    vectors, data = build()
    return json.dumps(vectors, indent=1, sort_keys=True) + "\n", data


def _search(limit: int = 8) -> None:
    """Print, per deal variant and bot seed, the along plays and the placements' points."""
    for variant in range(limit):
        for seed in range(2):
            table, seen = play_hand(variant, seed)
            ended = [e for e in seen if isinstance(e, HandEnded)]
            points = ended[0].result.move_points if ended else ()
            print(variant, seed, _along_plays(table), points)


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
