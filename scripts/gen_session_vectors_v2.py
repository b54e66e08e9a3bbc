#!/usr/bin/env python3
"""Write protocol/vectors/session_hand_v2.json and .p2pd (and with `--version 3` the same hand at
protocol version 3: session_hand_v3.json and .p2pd): one complete 4-seat hand.

Four peers play one hand of `house` with two doubles a turn (`two_doubles`) through `LocalTable`
from fixed inputs, as `gen_session_vectors.py` does for version 1: identities from
`SHA-256(label)`, the fixed table id, one `DeterministicRandom` per seat, seeded bots. The whole
set is dealt (4 × 7), so the lead claims (PROTOCOL.md §10.5) start at the bound [1|1]: the seats
before the holder of [0|0] send nil claims, the holder reveals it, and the phase stops early. The
hand also has a `skip` (type 27). A second implementation of PROTOCOL.md version 2 must accept the
transcript and, fed the same inputs and actions, produce it byte for byte. At version 3 the same
hand's plays and claims show tiles with OR-proofs (`play3`, `lead_claim3`, PROTOCOL.md §10.6).

Run from the repository root: `PYTHONPATH=. python scripts/gen_session_vectors_v2.py
[--version 3]`; `--check` exits 1 if the files on disk differ; `--search` lists candidate seeds.
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
VERSIONS = (2, 3)

TABLE_ID = bytes(range(16))
NAMES = ("alice", "bob", "carol", "dave")
RULES = {"base": "house", "name": "house-two-doubles", "two_doubles": True}
"""The table's rules file (a preset with overrides, docs/rules.md)."""
RNG_LABEL = "session-vector-v{version}/{variant}/seat/{seat}"
NONCE_LABEL = "session-vector-v{version}/table-nonce/{seat}"
VARIANT = 0
"""Picks the deal (through every seat's randomness): chosen so that [0|0] is not seat 3's."""
BOT_SEED = 0
"""The bots' seed: chosen so that the hand has a skip (see `--search`)."""
MAX_HANDS = 1


def identities() -> list[Identity]:
    return [Identity.from_private_bytes(hashlib.sha256(x.encode()).digest()) for x in NAMES]


def nonces(version: int) -> list[bytes]:
    labels = (NONCE_LABEL.format(version=version, seat=s) for s in range(4))
    return [hashlib.sha256(label.encode()).digest() for label in labels]


def outputs(version: int) -> tuple[Path, Path]:
    """The JSON file and the transcript file of the vector at `version`."""
    return VECTORS / f"session_hand_v{version}.json", VECTORS / f"session_hand_v{version}.p2pd"


def play_hand(
    variant: int = VARIANT, bot_seed: int = BOT_SEED, version: int = 2
) -> tuple[LocalTable, list[Event]]:
    """Play the vector hand at protocol `version`; the table and seat 0's events."""
    seen: list[Event] = []
    table = LocalTable.create(
        Rules.from_dict(RULES),
        NAMES,
        [random_bot, greedy_bot, random_bot, greedy_bot],
        seed=bot_seed,
        max_hands=MAX_HANDS,
        rngs=[
            DeterministicRandom(RNG_LABEL.format(version=version, variant=variant, seat=s).encode())
            for s in range(4)
        ],
        identities=identities(),
        table_id=TABLE_ID,
        nonces=nonces(version),
        protocol_version=version,  # each vector keeps its version (and its bytes)
    )
    table.on_event = lambda seat, event: seen.append(event) if seat == 0 else None
    table.run()
    return table, seen


def _claims(table: LocalTable) -> list[dict[str, Any]]:
    out = []
    for envelope in table.sessions[0].transcript:
        shown = None
        if envelope.type is msg.LEAD_CLAIM:
            data = envelope.field("reveal")
            if isinstance(data, bytes):
                shown = tile_text(TileReveal.from_bytes(data, envelope.seat).tile)
        elif envelope.type is msg.LEAD_CLAIM3:  # v3: the tile itself, with its OR-proof
            claim = envelope.field("claim")
            if claim is not None:
                shown = tile_text(claim[0])
        else:
            continue
        out.append({"seat": envelope.seat, "reveal": shown})
    return out


def build(version: int = 2) -> tuple[dict[str, Any], bytes]:
    """The vectors at `version` as a JSON-ready object, and the transcript file's bytes."""
    table, seen = play_hand(version=version)
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
            f"One complete 4-seat hand of `house` with two doubles a turn, protocol version "
            f"{version} (PROTOCOL.md §10): nil lead claims, an early stop at [0|0], and a skip. "
            f"Generated by scripts/gen_session_vectors_v2.py"
            f"{' --version 3' if version == 3 else ''}; the transcript file is "
            f"session_hand_v{version}.p2pd."
        ),
        "protocol_version": version,
        "rules": RULES,
        "max_hands": MAX_HANDS,
        "table_id": TABLE_ID.hex(),
        "seats": [
            {
                "seat": s,
                "name": NAMES[s],
                "identity_label": NAMES[s],
                "public_key": identity.public.raw.hex(),
                "rng_seed": RNG_LABEL.format(version=version, variant=VARIANT, seat=s),
                "table_nonce_label": NONCE_LABEL.format(version=version, seat=s),
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


def render(version: int = 2) -> tuple[str, bytes]:
    """The JSON file's exact text and the transcript file's exact bytes at `version`."""
    vectors, data = build(version)
    return json.dumps(vectors, indent=1, sort_keys=True) + "\n", data


def _search(version: int, limit: int = 6) -> None:
    """Print, per deal variant and bot seed, the claims and whether the hand has a skip."""
    for variant in range(limit):
        for seed in range(limit):
            table, _ = play_hand(variant, seed, version)
            names = [e.type.name for e in table.sessions[0].transcript]
            print(variant, seed, [c["reveal"] for c in _claims(table)], "skip" in names)


def main(argv: list[str]) -> int:
    """Write the vectors, or with --check compare them with the files."""
    version = int(argv[argv.index("--version") + 1]) if "--version" in argv else 2
    if version not in VERSIONS:
        print(f"--version must be one of {VERSIONS}", file=sys.stderr)
        return 2
    if "--search" in argv:
        _search(version)
        return 0
    text, data = render(version)
    output, transcript = outputs(version)
    if "--check" in argv:
        same = output.read_text() == text and transcript.read_bytes() == data
        return 0 if same else 1
    output.write_text(text)
    transcript.write_bytes(data)
    print(f"wrote {output} and {transcript}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
