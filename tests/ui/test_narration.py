"""Narration (terminal, page log, replay): every result names the player, in English and Russian;
a seat without a name is numbered from 1."""

from __future__ import annotations

from p2p_dominoes.engine import (
    DRAW,
    PASS,
    PRESETS,
    MatchOutcome,
    Play,
    score_block,
    score_domino,
    tile_of,
)
from p2p_dominoes.engine import result_text as result
from p2p_dominoes.session.events import ActionTaken, MatchEnded
from p2p_dominoes.ui import narrate

NAMES = ("Ann", "Bob", "Cleo")


def test_actions_name_the_player() -> None:
    play = Play(tile_of(1, 4))
    assert narrate(ActionTaken(1, play), NAMES) == ["  Bob plays [1|4]"]
    assert narrate(ActionTaken(2, DRAW), NAMES) == ["  Cleo draws"]
    assert narrate(ActionTaken(0, PASS), NAMES, "ru") == ["  Ann пропускает ход"]
    assert narrate(ActionTaken(1, PASS), ()) == ["  seat 2 passes"]  # one-based
    assert narrate(ActionTaken(1, PASS), (), "ru") == ["  место 2 пропускает ход"]


def test_hand_results_name_the_winner() -> None:
    domino = score_domino(1, [8, 0, 10])
    assert result(domino, "en", NAMES) == "Domino by Bob: 8 + 10 = 18."
    assert result(domino, "ru", NAMES) == "Домино: Bob выкладывает последнюю кость, 8 + 10 = 18."
    assert result(domino) == "Domino by seat 2: 8 + 10 = 18."
    block = score_block(PRESETS["block"], [3, 9, 12])
    assert result(block, "en", NAMES) == "Block: Ann has the single lowest total, 9 + 12 − 3 = 18."
    assert result(block, "ru", NAMES) == (
        "Блокировка: наименьшая сумма только у одного игрока — Ann, 9 + 12 − 3 = 18."
    )


def test_the_match_result_names_the_winner_and_the_scores() -> None:
    won = MatchEnded(MatchOutcome(over=True, winner=0, draw=False), (104, 20, 7), 5, None)
    assert narrate(won, NAMES) == ["Ann wins the match: Ann 104, Bob 20, Cleo 7."]
    assert narrate(won, NAMES, "ru") == ["Матч выигрывает Ann: Ann 104, Bob 20, Cleo 7."]
    assert narrate(won, ()) == ["Seat 1 wins the match: 104, 20, 7."]


def test_a_match_of_agreed_hands_says_it_is_finished() -> None:
    stopped = MatchEnded(MatchOutcome(over=False, winner=None, draw=False), (12, 5, 0), 2, 2)
    assert stopped.limit_reached
    assert narrate(stopped, NAMES) == ["Match finished after 2 of 2 hands: Ann 12, Bob 5, Cleo 0."]
    assert narrate(stopped, NAMES, "ru") == [
        "Матч окончен после 2 из 2 сдач: Ann 12, Bob 5, Cleo 0."
    ]
    one = MatchEnded(MatchOutcome(over=False, winner=None, draw=False), (3, 0), 1, 1)
    assert narrate(one, ("Ann", "Bob")) == ["Match finished after 1 of 1 hand: Ann 3, Bob 0."]
    assert narrate(one, ("Ann", "Bob"), "ru") == ["Матч окончен после 1 из 1 сдачи: Ann 3, Bob 0."]


def test_a_forwarded_blame_names_who_forwarded_the_evidence() -> None:
    from p2p_dominoes.session.events import Blame, CheatingDetected

    blame = Blame(1, "shuffle 1: shuffle proof does not verify", "bad-proof", (b"m",), via=2)
    assert narrate(CheatingDetected(blame), NAMES) == [
        "CHEATING: Bob — shuffle 1: shuffle proof does not verify"
        " (evidence forwarded by Cleo, checked here)"
    ]
    (ru,) = narrate(CheatingDetected(blame), NAMES, "ru")
    assert ru.endswith("(доказательство переслал(а) Cleo, проверено здесь)")
    direct = Blame(1, "bad", "bad-proof", (b"m",))
    assert narrate(CheatingDetected(direct), NAMES) == ["CHEATING: Bob — bad"]


def test_a_cheat_whose_reason_is_a_phrase_is_told_in_the_readers_language() -> None:
    from p2p_dominoes.engine import IllegalAction
    from p2p_dominoes.session.events import Blame, CheatingDetected

    refused = IllegalAction(1, "draw", "x").args[0]  # the engine's Phrase
    blame = Blame(1, refused, "illegal", (b"m",))
    assert narrate(CheatingDetected(blame), NAMES) == ["CHEATING: Bob — seat 1 cannot draw: x"]
    assert narrate(CheatingDetected(blame), NAMES, "ru") == [
        "ЖУЛЬНИЧЕСТВО: Bob — место 1 не может draw: x"
    ]
