"""The engine benchmark's paired slices: a median ratio with an interval that one slow slice
does not move."""

from __future__ import annotations

from p2p_dominoes.benchmarks.engine import Paired, _paired


def test_one_slowed_round_does_not_move_the_median_ratio() -> None:
    ratios = [2.0 + i / 100 for i in range(39)] + [0.5]  # one round the machine slowed
    paired = Paired(100.0, 200.0, ratios)
    assert paired.ratio == 2.185  # the middle of the forty, as if the slow round were not there
    low, high = paired.ratio_ci95
    ordered = sorted(ratios)
    assert (low, high) == (ordered[13], ordered[26])  # the 14th and 27th of 40
    assert low < paired.ratio < high


def test_rounds_time_both_players_and_swap_their_order() -> None:
    calls: list[str] = []

    def player(name: str, hands: int) -> int:
        calls.append(name)
        return hands

    paired = _paired(lambda: player("a", 1), lambda: player("b", 3), 0.08, rounds=4)
    assert len(paired.ratios) == 4 and paired.first > 0 and paired.second > paired.first
    runs = [calls[0]] + [calls[i] for i in range(1, len(calls)) if calls[i] != calls[i - 1]]
    # Rounds a-b, b-a, a-b, b-a: each round's second slice runs on into the next's first.
    assert runs == ["a", "b", "a", "b", "a"]
