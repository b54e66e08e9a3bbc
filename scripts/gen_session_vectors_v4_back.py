#!/usr/bin/env python3
"""Write protocol/vectors/session_back_v4.json and .p2pd: a version 4 table a leaver comes back to.

Three peers (`alice`, `bob`, `carol`: identities from `SHA-256(label)`, the fixed table id, one
`DeterministicRandom` per seat, greedy bots) play `draw` for three counted hands through
`LocalTable`. During hand 2's turns `carol` (seat 2) says goodbye; seat 0 proposes `erin`
(identity `SHA-256("erin")`) for seat 2 and hand 3 is played (PROTOCOL.md §16). During hand 3's
turns carol asks her seat back under the name `carol` with the fresh key `SHA-256("carol-back")`
(her request signed by her genesis key, §16.1): at hand 4's start seat 0 says so (`come_back`,
hand 4 is set aside with nothing dealt), proposes the continuation that gives seat 2 back, seats
1 and 2 (carol's fresh key) sign, and hand 5 ends the match. A second implementation of version 4
must accept the transcript and, fed the same inputs and actions, produce it byte for byte.

Run from the repository root: `PYTHONPATH=. python scripts/gen_session_vectors_v4_back.py`;
`--check` exits 1 if the files on disk differ.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import Rules
from p2p_dominoes.mental import RandomSource
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session.events import Event, HandEnded, SeatReplaced
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.leave_messages import COME_BACK, ComeBack
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
OUTPUT = VECTORS / "session_back_v4.json"
TRANSCRIPT = VECTORS / "session_back_v4.p2pd"
VERSION = 4

TABLE_ID = bytes(range(16))
NAMES = ("alice", "bob", "carol")
NEWCOMER = "erin"
RETURNER = "carol-back"
"""The label of the returning player's fresh identity (she comes back under the name `carol`)."""
LEAVER = 2
RULES = {"base": "draw", "name": "draw"}
RNG_LABEL = "session-vector-v4-back/seat/{seat}"
NEWCOMER_RNG = "session-vector-v4-back/erin"
RETURNER_RNG = "session-vector-v4-back/carol-back"
NONCE_LABEL = "session-vector-v4-back/table-nonce/{seat}"
BOT_SEED = 0
MAX_HANDS = 3


def _identity(label: str) -> Identity:
    return Identity.from_private_bytes(hashlib.sha256(label.encode()).digest())


def _in_hand(number: int) -> Any:
    def until(table: LocalTable) -> bool:
        hand = table.sessions[0].hand
        return (
            hand is not None and hand.number == number and bool(hand.public and hand.public.history)
        )

    return until


def _newcomer(seat: int) -> tuple[str, Identity, RandomSource]:
    return NEWCOMER, _identity(NEWCOMER), DeterministicRandom(NEWCOMER_RNG.encode())


def play() -> tuple[LocalTable, list[Event]]:
    """Play the vector table; the table and seat 0's events."""
    seen: list[Event] = []
    table = LocalTable.create(
        Rules.from_dict(RULES),
        NAMES,
        [greedy_bot] * 3,
        seed=BOT_SEED,
        max_hands=MAX_HANDS,
        rngs=[DeterministicRandom(RNG_LABEL.format(seat=s).encode()) for s in range(3)],
        identities=[_identity(name) for name in NAMES],
        table_id=TABLE_ID,
        nonces=[hashlib.sha256(NONCE_LABEL.format(seat=s).encode()).digest() for s in range(3)],
        protocol_version=VERSION,
    )
    table.newcomer = _newcomer
    table.on_event = lambda seat, event: seen.append(event) if seat == 0 else None
    table.run(until=_in_hand(2))
    table.leave(LEAVER)
    table.run(until=_in_hand(3))
    rng = DeterministicRandom(RETURNER_RNG.encode())
    table.come_back(LEAVER, "carol", rng, _identity(RETURNER))
    table.run()
    return table, seen


def build() -> tuple[dict[str, Any], bytes]:
    """The vectors as a JSON-ready object, and the transcript file's bytes."""
    table, seen = play()
    if any(table.blames) or len(set(table.heads())) != 1:
        raise RuntimeError(f"the vector table did not run cleanly: {table.blames}")
    transcript = table.sessions[0].transcript
    data = transcript.to_bytes()
    report = verify_transcript(data)
    if not report.ok or not report.complete or not report.seats_back:
        raise RuntimeError(f"the vector transcript does not verify: {report.failure}")
    (come_back,) = [ComeBack.of(e) for e in transcript if e.type == COME_BACK]
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
    changes = [e for e in seen if isinstance(e, SeatReplaced)]
    vectors = {
        "description": (
            "A 3-seat protocol version 4 table of `draw`: seat 2 (carol) says goodbye during "
            "hand 2 and erin takes the seat from hand 3 (§16); during hand 3 carol asks it back "
            "with a fresh key, seat 0's come_back sets hand 4 aside at its start, the "
            "continuation gives seat 2 back to carol, and hand 5 ends the match (§16.1). "
            "Generated by scripts/gen_session_vectors_v4_back.py; the transcript file is "
            "session_back_v4.p2pd."
        ),
        "protocol_version": VERSION,
        "rules": RULES,
        "max_hands": MAX_HANDS,
        "table_id": TABLE_ID.hex(),
        "seats": [
            {
                "seat": s,
                "name": NAMES[s],
                "identity_label": NAMES[s],
                "public_key": _identity(NAMES[s]).public.raw.hex(),
                "rng_seed": RNG_LABEL.format(seat=s),
                "table_nonce_label": NONCE_LABEL.format(seat=s),
            }
            for s in range(3)
        ],
        "newcomer": {
            "seat": LEAVER,
            "name": NEWCOMER,
            "identity_label": NEWCOMER,
            "public_key": _identity(NEWCOMER).public.raw.hex(),
            "rng_seed": NEWCOMER_RNG,
        },
        "returner": {
            "seat": LEAVER,
            "name": "carol",
            "identity_label": RETURNER,
            "public_key": _identity(RETURNER).public.raw.hex(),
            "rng_seed": RETURNER_RNG,
            "asked_with": NAMES[LEAVER],
        },
        "bots": {"strategies": ["greedy"] * 3, "seed": BOT_SEED},
        "come_back": {
            "hand": come_back.hand,
            "seat": come_back.seat,
            "name": come_back.name,
            "key": come_back.key.raw.hex(),
            "asked": come_back.asked.hex(),
            "by": come_back.by,
        },
        "seat_changes": [
            {
                "seat": e.seat,
                "before": e.before,
                "name": e.name,
                "from_hand": e.next_hand,
                "back": e.back,
            }
            for e in changes
        ],
        "hands_ended": [e.number for e in seen if isinstance(e, HandEnded)],
        "messages": messages,
        "head": transcript.head.hex(),
        "transcript_file_sha256": hashlib.sha256(data).hexdigest(),
        "scores": list(report.scores),
    }
    return vectors, data


def render() -> tuple[str, bytes]:
    """The JSON file's exact text and the transcript file's exact bytes."""
    vectors, data = build()
    return json.dumps(vectors, indent=1, sort_keys=True) + "\n", data


def main(argv: list[str]) -> int:
    """Write the vectors, or with --check compare them with the files."""
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
