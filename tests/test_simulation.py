"""Local bot games: deterministic for a seed, and complete."""

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import DRAW_RULES, PRESETS
from p2p_dominoes.simulation import simulate


def test_the_same_seed_gives_the_same_games() -> None:
    one = simulate(DRAW_RULES, 3, [random_bot] * 3, ["random"] * 3, seed=42, hands=50)
    two = simulate(DRAW_RULES, 3, [random_bot] * 3, ["random"] * 3, seed=42, hands=50)
    other = simulate(DRAW_RULES, 3, [random_bot] * 3, ["random"] * 3, seed=43, hands=50)
    assert one.to_dict() | {"hands_per_second": 0} == two.to_dict() | {"hands_per_second": 0}
    assert one.points != other.points


def test_a_whole_match_ends_with_one_winner_or_a_draw_for_every_preset() -> None:
    for rules in PRESETS.values():
        for players in rules.player_counts:
            report = simulate(rules, players, [greedy_bot] * players, ["greedy"] * players, 9)
            assert report.matches == 1
            assert sum(report.matches_won) + report.matches_drawn == 1
            assert max(report.points) >= rules.target(players)
