"""The crypto benchmark's code path at tiny size (coverage only: no timing assertions)."""

from __future__ import annotations

import json

import pytest

from p2p_dominoes.benchmarks import crypto
from p2p_dominoes.benchmarks.sra import sra_deal


def test_sra_baseline_deals_distinct_tiles() -> None:
    result = sra_deal(3, 5, p=1019)
    tiles = [t for hand in result.hands for t in hand]
    assert len(tiles) == len(set(tiles)) == 15
    assert result.modexps == 3 * 28 + 2 * 3 * 28 + 15 * 3


def test_json_output_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert crypto.run([2], baseline=True, as_json=True, repeats=1, sra_prime=1019) == 0
    out = json.loads(capsys.readouterr().out)
    entry = out["2"]
    for key in ("setup_cpu_s", "baseline_sra_cpu_s", "libsodium_lower_bound_s"):
        assert entry[key] > 0
    assert entry["libsodium_calls"]["mul"] > 0
    sizes = out["or_proof"]
    assert {size: sizes[size]["bytes"] for size in sizes} == {"1": 64, "7": 448, "14": 896}
    assert all(sizes[s]["prove_ms"] > 0 and sizes[s]["verify_ms"] > 0 for s in sizes)


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert crypto.run([2], baseline=False, as_json=False, repeats=1, sra_prime=1019) == 0
    out = capsys.readouterr().out
    assert "lower bound" in out and "SRA" not in out.split("libsodium calls")[1]
    assert "|S| = 14:  896 bytes" in out
