#!/usr/bin/env python3
"""Write protocol/vectors/or_proof_v3.json: vectors of the v3 play's OR-proof (MP §4.4).

The hand is mental_v1.json's (table `vector-table`, hand 1, two seats, the same DRBG seeds), so
its keys and final deck can be checked against that file. Seat 1 proves a tile at one of S for
S of 1, 7 and 14 positions (its dealt positions 7..13, then 14..20 as if drawn), each with its
DRBG seed, and for every branch a forged proof (that branch's challenge + 1) that must fail.
Run from the repository root: `python scripts/gen_or_proof_vectors.py`; `--check` exits 1 if
the file on disk differs.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from p2p_dominoes.mental import (
    HandContext,
    Step,
    StepKind,
    branches_for,
    check_shuffles,
    combine_keys,
    make_share,
    new_hand_keys,
    open_position,
    partial_opening,
    prove_tile,
    shuffle_deck,
    starting_deck,
    tile_text,
)
from p2p_dominoes.mental.group import L
from p2p_dominoes.mental.randomness import DeterministicRandom

OUTPUT = Path(__file__).resolve().parent.parent / "protocol" / "vectors" / "or_proof_v3.json"
OWNER = 1
SETS = ((7, 7), (tuple(range(7, 14)), 10), (tuple(range(7, 21)), 16))
"""(S, the position that holds the tile): a last tile, a dealt hand, a hand after 7 draws."""
STEP = Step(StepKind.PLAY, 3)


def _rng(label: str) -> DeterministicRandom:
    return DeterministicRandom(label.encode())


def forge(proof: bytes, branch: int) -> bytes:
    """The proof with branch `branch`'s challenge increased by one (mod L)."""
    start = 64 * branch
    c = (int.from_bytes(proof[start : start + 32], "little") + 1) % L
    return proof[:start] + c.to_bytes(32, "little") + proof[start + 32 :]


def build_vectors() -> dict[str, Any]:
    """The vectors as a JSON-ready object."""
    ctx = HandContext(b"vector-table", 1, 2)
    keys = [new_hand_keys(ctx, seat, _rng(f"keys/{seat}")) for seat in range(2)]
    joint = combine_keys(ctx, [k.commit for k in keys], [k.reveal for k in keys])
    deck, steps = starting_deck(joint), []
    for seat in range(2):
        step = shuffle_deck(ctx, seat, joint, deck, _rng(f"shuffle/{seat}"))
        steps.append(step)
        deck = step.deck
    final = check_shuffles(ctx, steps, joint)
    positions, openings, tiles = [], {}, {}
    for p in range(7, 21):
        share = make_share(ctx, keys[0], final, p, _rng(f"share/0/{p}"))
        openings[p] = partial_opening(ctx, joint, final, p, OWNER, [share])
        tiles[p] = open_position(ctx, keys[OWNER], joint, final, p, [share])
        positions.append(
            {
                "position": p,
                "share_seed": f"share/0/{p}",
                "share_of_seat_0": share.share.raw.hex(),
                "c1": final[p].c1.raw.hex(),
                "partial_opening": openings[p].hex(),
                "tile": tiles[p],
            }
        )
    proofs = []
    for members, real in SETS:
        group = (members,) if isinstance(members, int) else members
        branches = branches_for(final, group, openings)
        seed = f"or/{len(group)}"
        proof = prove_tile(ctx, keys[OWNER], STEP, tiles[real], branches, real, _rng(seed))
        proofs.append(
            {
                "positions": list(group),
                "real_position": real,
                "tile": tiles[real],
                "tile_text": tile_text(tiles[real]),
                "seed": seed,
                "proof": proof.hex(),
                "forged_per_branch": [forge(proof, b).hex() for b in range(len(group))],
            }
        )
    return {
        "description": (
            "OR-proof of a v3 play (MENTAL_POKER.md §4.4) on mental_v1.json's hand: seat 1 "
            "proves that `tile` is at one of `positions`; each forged proof (one branch's "
            "challenge + 1) must fail"
        ),
        "context": {"table_id": b"vector-table".hex(), "hand_number": 1, "seats": 2},
        "step": {"kind": int(STEP.kind), "index": STEP.index},
        "prover": OWNER,
        "prover_public_key": keys[OWNER].reveal.public_key.raw.hex(),
        "final_deck": final.to_bytes().hex(),
        "held_positions": positions,
        "proofs": proofs,
    }


def render() -> str:
    """The file's exact text."""
    return json.dumps(build_vectors(), indent=1, sort_keys=True) + "\n"


def main(argv: list[str]) -> int:
    """Write the vectors, or with --check compare them with the file."""
    text = render()
    if "--check" in argv:
        return 0 if OUTPUT.read_text() == text else 1
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
