#!/usr/bin/env python3
"""Write protocol/vectors/mental_v1.json: deterministic test vectors for the mental protocol.

Every random draw comes from `DeterministicRandom` with the seed named next to the value, so a
second implementation that follows protocol/MENTAL_POKER.md (including its test DRBG) must
reproduce every byte. Run from the repository root: `python scripts/gen_mental_vectors.py`;
`--check` exits 1 if the file on disk differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.mental import (
    HandContext,
    HandRecord,
    ProofBinding,
    Step,
    StepKind,
    Transcript,
    audit,
    check_shuffles,
    combine_keys,
    generators,
    make_share,
    new_hand_keys,
    open_position,
    reveal_secret,
    reveal_tile,
    shuffle_deck,
    starting_deck,
    tile_point,
    tile_text,
)
from p2p_dominoes.mental.randomness import (
    DeterministicRandom,
    random_permutation,
    random_scalar,
)

OUTPUT = Path(__file__).resolve().parent.parent / "protocol" / "vectors" / "mental_v1.json"
HAND_SIZE = 7


def _seed(label: str) -> tuple[str, DeterministicRandom]:
    return label, DeterministicRandom(label.encode())


def _drbg_vectors() -> dict[str, Any]:
    rng = DeterministicRandom(b"drbg-example")
    first = rng.random_bytes(80)
    below = [rng.randbelow(28) for _ in range(8)]
    scalar = random_scalar(rng)
    perm = random_permutation(28, rng)
    return {
        "seed": "drbg-example",
        "first_80_bytes": first.hex(),
        "then_randbelow_28_x8": below,
        "then_random_scalar_le": scalar.to_bytes(32, "little").hex(),
        "then_permutation_28": perm,
    }


def _transcript_vector() -> dict[str, Any]:
    ctx = HandContext(b"vector-table", 3, 2)
    binding = ProofBinding(ctx, Step(StepKind.SHARE, 9), 1)
    transcript = Transcript(b"example", binding)
    transcript.append(b"record", b"\x00\x01\x02")
    return {
        "proof_name": "example",
        "table_id_hex": ctx.table_id.hex(),
        "hand_number": 3,
        "seats": 2,
        "step": {"kind": int(StepKind.SHARE), "index": 9},
        "prover": 1,
        "records": [{"label": "record", "data_hex": "000102"}],
        "challenge_label": "c",
        "challenge_le": transcript.challenge(b"c").to_bytes(32, "little").hex(),
    }


def _hand_vectors() -> dict[str, Any]:
    ctx = HandContext(b"vector-table", 1, 2)
    seats = range(ctx.seats)
    keys, key_vectors = [], []
    for seat in seats:
        label, rng = _seed(f"keys/{seat}")
        k = new_hand_keys(ctx, seat, rng)
        keys.append(k)
        key_vectors.append(
            {
                "seat": seat,
                "seed": label,
                "secret_le": k.secret.to_bytes().hex(),
                "public_key": k.reveal.public_key.raw.hex(),
                "lottery": k.reveal.lottery.hex(),
                "key_commit_message": k.commit.to_bytes().hex(),
                "key_reveal_message": k.reveal.to_bytes().hex(),
            }
        )
    joint = combine_keys(ctx, [k.commit for k in keys], [k.reveal for k in keys])
    deck = start = starting_deck(joint)
    shuffles, steps = [], []
    for seat in seats:
        label, rng = _seed(f"shuffle/{seat}")
        replay = DeterministicRandom(label.encode())
        step = shuffle_deck(ctx, seat, joint, deck, rng)
        steps.append(step)
        shuffles.append(
            {
                "seat": seat,
                "seed": label,
                "permutation": random_permutation(28, replay),
                "deck": step.deck.to_bytes().hex(),
                "proof": step.proof.to_bytes().hex(),
                "shuffle_message": step.to_bytes().hex(),
            }
        )
        deck = step.deck
    final = check_shuffles(ctx, steps, joint)
    shares, share_vectors, tiles, reveals, reveal_vectors = [], [], {}, [], []
    for owner in seats:
        for position in range(owner * HAND_SIZE, (owner + 1) * HAND_SIZE):
            mine = []
            for seat in seats:
                if seat == owner:
                    continue
                label, rng = _seed(f"share/{seat}/{position}")
                share = make_share(ctx, keys[seat], final, position, rng)
                mine.append(share)
                share_vectors.append(
                    {
                        "seat": seat,
                        "position": position,
                        "seed": label,
                        "share_message": share.to_bytes().hex(),
                    }
                )
            shares.extend(mine)
            tile = open_position(ctx, keys[owner], joint, final, position, mine)
            tiles[position] = tile
            if position == owner * HAND_SIZE:  # each seat plays its first tile
                label, rng = _seed(f"reveal/{owner}/{position}")
                reveal = reveal_tile(ctx, keys[owner], final, position, tile, rng)
                reveals.append(reveal)
                reveal_vectors.append(
                    {
                        "seat": owner,
                        "position": position,
                        "tile": tile_text(tile),
                        "seed": label,
                        "tile_reveal_message": reveal.to_bytes().hex(),
                    }
                )
    secrets = [reveal_secret(k) for k in keys]
    report = audit(
        HandRecord(
            ctx,
            tuple(k.commit for k in keys),
            tuple(k.reveal for k in keys),
            tuple(steps),
            tuple(shares),
            tuple(reveals),
            tuple(secrets),
        )
    )
    assert report.ok and report.tiles is not None
    return {
        "context": {
            "version": ctx.version,
            "table_id_hex": ctx.table_id.hex(),
            "hand_number": ctx.hand_number,
            "seats": ctx.seats,
            "encoding": ctx.to_bytes().hex(),
        },
        "keys": key_vectors,
        "joint_key": joint.key.raw.hex(),
        "lottery_value": joint.lottery.hex(),
        "starting_deck": start.to_bytes().hex(),
        "shuffles": shuffles,
        "final_deck": final.to_bytes().hex(),
        "deal": {
            "rule": "seat s receives positions 7s .. 7s+6",
            "shares": share_vectors,
            "tiles_by_position": {str(p): tile_text(t) for p, t in sorted(tiles.items())},
        },
        "tile_reveals": reveal_vectors,
        "secret_reveal_messages": [s.to_bytes().hex() for s in secrets],
        "audit_tiles": [tile_text(t) for t in report.tiles],
    }


def build_vectors() -> dict[str, Any]:
    """Every vector, as a JSON-ready dict."""
    return {
        "protocol": "p2p-dominoes/mental",
        "version": 1,
        "spec": "protocol/MENTAL_POKER.md",
        "tile_points": [
            {"index": t, "tile": tile_text(t), "point": tile_point(t).raw.hex()} for t in range(28)
        ],
        "generators": [{"index": k, "point": g.raw.hex()} for k, g in enumerate(generators(29))],
        "test_drbg": _drbg_vectors(),
        "transcript": _transcript_vector(),
        "hand": _hand_vectors(),
    }


def render() -> str:
    """The file's exact text."""
    return json.dumps(build_vectors(), indent=1, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """Write the vectors, or with --check compare them with the file."""
    text = render()
    if "--check" in argv:
        return 0 if OUTPUT.read_text() == text else 1
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
