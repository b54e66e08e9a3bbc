#!/usr/bin/env python3
"""Write protocol/vectors/session_hand_v1.json and .p2pd: one complete 2-seat hand, every byte.

Two peers play one hand of `draw` through `LocalTable` (the in-memory router) from fixed inputs:
identities from `SHA-256(label)`, a fixed table id, one `DeterministicRandom` per seat for all of
that seat's protocol randomness, and seeded bots. Every signed message is listed with its hash,
and the transcript file (PROTOCOL.md §8) is written beside the JSON. A second implementation that
follows PROTOCOL.md §10 and MENTAL_POKER.md (including the test DRBG and the draw order of
§10.9) must accept this transcript, and, fed the same inputs and actions, produce it byte for byte.

Run from the repository root: `python scripts/gen_session_vectors.py`; `--check` exits 1 if the
files on disk differ.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import DRAW_RULES, HandResult
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
    combine_keys,
    tile_text,
)
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session import transcript_table_code
from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.events import Blame, Event, HandEnded
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.session.verify import verify_transcript

VECTORS = Path(__file__).resolve().parent.parent / "protocol" / "vectors"
OUTPUT = VECTORS / "session_hand_v1.json"
TRANSCRIPT = VECTORS / "session_hand_v1.p2pd"

TABLE_ID = bytes(range(16))
"""The table id of PROTOCOL.md §11: 000102…0f."""
IDENTITY_LABELS = ("alice", "bob")
"""Seat s's Ed25519 private key is SHA-256 of its ASCII label (as in PROTOCOL.md §11)."""
NAMES = ("alice", "bob")
RNG_LABEL = "session-vector/seat/{seat}"
"""Seat s draws all of its protocol randomness from DeterministicRandom(ASCII of this label)."""
NONCE_LABEL = "session-vector/table-nonce/{seat}"
"""Seat s's table nonce (PROTOCOL.md §7.3) is SHA-256 of the ASCII of this label."""
MAX_HANDS = 1
"""The genesis's signed match length (PROTOCOL.md §7.1): one hand, so the record is finished."""
BOT_SEED = 3
"""The bots' seed: chosen so that the hand has draws, passes and a block (see `--search`)."""


def identities() -> list[Identity]:
    """The two fixed identities."""
    return [
        Identity.from_private_bytes(hashlib.sha256(x.encode()).digest()) for x in IDENTITY_LABELS
    ]


def nonces() -> list[bytes]:
    """The two fixed table nonces."""
    return [hashlib.sha256(NONCE_LABEL.format(seat=s).encode()).digest() for s in range(2)]


def play_hand(bot_seed: int = BOT_SEED) -> tuple[LocalTable, list[HandEnded], list[Blame | None]]:
    """Play the vector hand; returns the table, its hand results (seat 0's view) and blames."""
    ended: list[HandEnded] = []

    def collect(seat: int, event: Event) -> None:
        if seat == 0 and isinstance(event, HandEnded):
            ended.append(event)

    table = LocalTable.create(
        DRAW_RULES,
        NAMES,
        [random_bot, random_bot],
        seed=bot_seed,
        max_hands=MAX_HANDS,
        rngs=[DeterministicRandom(RNG_LABEL.format(seat=s).encode()) for s in range(2)],
        identities=identities(),
        table_id=TABLE_ID,
        nonces=nonces(),
        protocol_version=1,  # the first protocol's vector: it must keep its bytes
    )
    table.on_event = collect
    table.run()
    return table, ended, table.blames


def _note(envelope: Envelope) -> str:
    """A short human note on what a message carries (for people reading the vectors)."""
    kind = envelope.type
    if kind in (msg.PLAY, msg.LEAD_CLAIM):
        reveal = envelope.field("reveal")
        assert isinstance(reveal, bytes)
        shown = TileReveal.from_bytes(reveal, envelope.seat)
        text = f"position {shown.position} is {tile_text(shown.tile)}"
        if kind is msg.PLAY and envelope.field("at") is not None:
            at = envelope.field("at")
            assert isinstance(at, int)
            text += f", placed on {tile_text(at)} side {envelope.field('side')}"
        return text
    if kind in (msg.DEAL, msg.HAND_REVEAL):
        items = envelope.field("shares" if kind is msg.DEAL else "reveals")
        assert isinstance(items, tuple)
        positions = [item[2] for item in items if isinstance(item, bytes)]
        return f"positions {positions}"
    if kind is msg.DRAW_SHARE:
        share = envelope.field("share")
        assert isinstance(share, bytes)
        return f"share for position {share[2]}"
    return ""


def _open_deck(transcript: Transcript) -> tuple[bytes, list[str]]:
    """The lottery value and the tile at each final deck position, from the messages alone.

    An independent decoding of the transcript with the mental-poker layer (not the session),
    so the vectors also show what each message contributes to the end-of-hand audit.
    """
    seats = len(transcript.genesis.seats)
    commits: list[KeyCommit] = []
    reveals: list[KeyReveal] = []
    shuffles: list[ShuffleStep] = []
    shares: list[DecryptionShare] = []
    tiles: list[TileReveal] = []
    secrets: list[SecretReveal] = []
    for envelope in list(transcript)[1 + seats :]:
        seat, kind = envelope.seat, envelope.type
        body = envelope.body[1] if len(envelope.body) > 1 else None
        if kind is msg.KEY_COMMIT:
            commits.append(KeyCommit.from_bytes(_bytes(body), seat))
        elif kind is msg.KEY_REVEAL:
            reveals.append(KeyReveal.from_bytes(_bytes(body), seat))
        elif kind is msg.SHUFFLE:
            shuffles.append(ShuffleStep.from_bytes(_bytes(body), seat))
        elif kind is msg.DEAL:
            assert isinstance(body, tuple)
            shares += [DecryptionShare.from_bytes(_bytes(b), seat) for b in body]
        elif kind is msg.DRAW_SHARE:
            shares.append(DecryptionShare.from_bytes(_bytes(body), seat))
        elif kind in (msg.LEAD_CLAIM, msg.PLAY):
            tiles.append(TileReveal.from_bytes(_bytes(body), seat))
        elif kind is msg.HAND_REVEAL:
            assert isinstance(body, tuple)
            tiles += [TileReveal.from_bytes(_bytes(b), seat) for b in body]
        elif kind is msg.SECRET_REVEAL:
            secrets.append(SecretReveal.from_bytes(_bytes(body), seat))
    ctx = HandContext(transcript.table_id, 1, seats)
    report = audit(
        HandRecord(ctx, (*commits,), (*reveals,), (*shuffles,), (*shares,), (*tiles,), (*secrets,))
    )
    if report.tiles is None:
        raise RuntimeError(f"the vector hand fails the mental-poker audit: {report.failure}")
    lottery = combine_keys(ctx, commits, reveals).lottery
    return lottery, [tile_text(t) for t in report.tiles]


def _code_json(transcript: Transcript) -> dict[str, Any]:
    """The table code every seat shows (PROTOCOL.md §7.3)."""
    code = transcript_table_code(transcript)
    assert code is not None
    return {
        "value": code.value.hex(),
        "en": code.text("en"),
        "ru": code.text("ru"),
        "digits": code.digits,
    }


def _bytes(value: object) -> bytes:
    assert isinstance(value, bytes)
    return value


def _result(result: HandResult) -> dict[str, Any]:
    return {
        "end": result.end.value,
        "winner": result.winner,
        "points": list(result.points),
        "pips": list(result.pips),
    }


def build() -> tuple[dict[str, Any], bytes]:
    """The vectors as a JSON-ready object, and the transcript file's bytes."""
    table, ended, blames = play_hand()
    if any(b is not None for b in blames) or len(set(table.heads())) != 1 or len(ended) != 1:
        raise RuntimeError(f"the vector hand did not run cleanly: {blames}")
    transcript = table.sessions[0].transcript
    data = transcript.to_bytes()
    report = verify_transcript(data)
    if not report.ok or not report.complete:
        raise RuntimeError(f"the vector transcript does not verify: {report.failure}")
    hand = ended[0]
    record = hand.record
    lottery, deck = _open_deck(transcript)
    seats = []
    for seat, (label, identity) in enumerate(zip(IDENTITY_LABELS, identities(), strict=True)):
        seats.append(
            {
                "seat": seat,
                "name": NAMES[seat],
                "identity_label": label,
                "private_key_seed": identity.private_bytes().hex(),
                "public_key": identity.public.raw.hex(),
                "fingerprint": identity.public.fingerprint,
                "rng_seed": RNG_LABEL.format(seat=seat),
                "table_nonce_label": NONCE_LABEL.format(seat=seat),
                "table_nonce": nonces()[seat].hex(),
                "commitment": transcript.genesis.seats[seat].commitment.hex(),
            }
        )
    messages = []
    for entry in transcript.entries:
        envelope = entry.envelope
        messages.append(
            {
                "index": entry.index,
                "seat": envelope.seat,
                "type": envelope.type.code,
                "name": envelope.type.name,
                "head": envelope.head.hex(),
                "hash": entry.hash.hex(),
                "note": _note(envelope),
                "envelope": entry.encoded.hex(),
            }
        )
    vectors = {
        "description": (
            "One complete 2-seat hand of the `draw` preset through the full session protocol "
            "(PROTOCOL.md §10). Generated by scripts/gen_session_vectors.py; the transcript "
            "file is session_hand_v1.p2pd beside this file."
        ),
        "protocol_version": 1,
        "rules": DRAW_RULES.name,
        "max_hands": MAX_HANDS,
        "table_id": TABLE_ID.hex(),
        "seats": seats,
        "randomness": (
            "each seat's DeterministicRandom (MENTAL_POKER.md §7, seed = ASCII rng_seed) serves "
            "all of that seat's draws, in transcript order (PROTOCOL.md §10.9)"
        ),
        "bots": {"strategy": "random", "seed": BOT_SEED},
        "messages": messages,
        "head": transcript.head.hex(),
        "table_code": _code_json(transcript),
        "transcript_file_sha256": hashlib.sha256(data).hexdigest(),
        "transcript_file_size": len(data),
        "deal": {
            "lottery": lottery.hex(),
            "opener": record.opener,
            "opener_rule": "int(lottery, big-endian) mod seats (PROTOCOL.md §10.5)",
            "tiles_by_position": deck,
            "hands": [[t.text for t in tiles] for tiles in record.hands],
            "boneyard": [t.text for t in record.boneyard],
        },
        "result": _result(hand.result),
        "scores": list(hand.scores),
    }
    return vectors, data


def render() -> tuple[str, bytes]:
    """The JSON file's exact text and the transcript file's exact bytes."""
    vectors, data = build()
    return json.dumps(vectors, indent=1, sort_keys=True) + "\n", data


def _search(limit: int = 40) -> None:
    """Print, per bot seed, what the hand contains (to pick an instructive BOT_SEED)."""
    for seed in range(limit):
        table, ended, _ = play_hand(seed)
        names = [e.envelope.type.name for e in table.sessions[0].transcript.entries]
        result = ended[0].result if ended else None
        print(seed, len(names), names.count("draw"), names.count("pass"), result and result.end)


def main(argv: list[str]) -> int:
    """Write the vectors, or with --check compare them with the files."""
    if "--search" in argv:
        _search()
        return 0
    text, data = render()
    if "--check" in argv:
        same = OUTPUT.read_text() == text and TRANSCRIPT.read_bytes() == data
        return 0 if same else 1
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text)
    TRANSCRIPT.write_bytes(data)
    print(f"wrote {OUTPUT} and {TRANSCRIPT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
