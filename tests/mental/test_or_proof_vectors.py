"""OR-proof vectors: the script reproduces protocol/vectors/or_proof_v3.json byte for byte, its
hand is mental_v1.json's, and from the file's bytes alone every proof verifies and every forged
one fails."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from p2p_dominoes.mental import Deck, HandContext, Point, Step, StepKind
from p2p_dominoes.mental.errors import ProofError
from p2p_dominoes.mental.group import sub
from p2p_dominoes.mental.or_proof import Branch, OrProof, or_binding

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "protocol" / "vectors" / "or_proof_v3.json"


def _script() -> ModuleType:
    path = ROOT / "scripts" / "gen_or_proof_vectors.py"
    spec = importlib.util.spec_from_file_location("gen_or", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _vectors() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(VECTORS.read_text())
    return data


def test_the_script_reproduces_the_file() -> None:
    assert _script().render() == VECTORS.read_text()


def test_the_hand_is_the_mental_v1_hand() -> None:
    mental_v1 = json.loads((ROOT / "protocol" / "vectors" / "mental_v1.json").read_text())
    assert _vectors()["final_deck"] == mental_v1["hand"]["final_deck"]


def _statement(v: dict[str, Any], positions: list[int]) -> tuple[Any, Point, list[Branch]]:
    context = v["context"]
    ctx = HandContext(bytes.fromhex(context["table_id"]), context["hand_number"], context["seats"])
    binding = or_binding(ctx, Step(StepKind(v["step"]["kind"]), v["step"]["index"]), v["prover"])
    deck = Deck.from_bytes(bytes.fromhex(v["final_deck"]), 28)
    held = {h["position"]: h for h in v["held_positions"]}
    branches = []
    for p in positions:
        opening = sub(deck[p].c2.raw, bytes.fromhex(held[p]["share_of_seat_0"]))
        assert opening.hex() == held[p]["partial_opening"]  # c2 − the other seat's share
        branches.append(Branch(p, deck[p].c1, opening))
    return binding, Point(bytes.fromhex(v["prover_public_key"])), branches


@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_proof_verifies_and_each_forged_branch_fails(index: int) -> None:
    v = _vectors()
    entry = v["proofs"][index]
    binding, public_key, branches = _statement(v, entry["positions"])
    count = len(branches)
    assert count == (1, 7, 14)[index] and len(entry["proof"]) == 128 * count
    OrProof.from_bytes(bytes.fromhex(entry["proof"]), count).verify(
        binding, public_key, entry["tile"], branches
    )
    assert len(entry["forged_per_branch"]) == count
    for forged in entry["forged_per_branch"]:
        with pytest.raises(ProofError, match="does not verify"):
            OrProof.from_bytes(bytes.fromhex(forged), count).verify(
                binding, public_key, entry["tile"], branches
            )
