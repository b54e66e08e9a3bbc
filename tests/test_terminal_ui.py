"""The terminal UI's text: the table, the menu of legal actions, and reading a choice."""

import dataclasses

from p2p_dominoes.engine import DRAW, DRAW_RULES, HandView, Play, parse_tile
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.ui.terminal import action_menu, parse_choice, render_menu, render_table
from tests.engine.dealing import deal


def test_the_menu_lists_every_legal_play_and_draw_and_reads_keys_or_tiles() -> None:
    state = deal(DRAW_RULES, ["1|4", "1|1 1|2 4|4 0|0 0|2 0|3 0|5"])
    state.apply(0, Play(parse_tile("1|4")))
    view = HandView(state, 1)
    menu = action_menu(view)
    assert [i.key for i in menu] == ["1", "2", "3", "d"]
    assert menu[0].label.startswith("play [1|1] on [1|4] (low end)")
    assert parse_choice("d", menu) is DRAW
    assert parse_choice(" 2 ", menu) == menu[1].action
    assert parse_choice("4|4", menu) == next(i.action for i in menu if "[4|4]" in i.label)
    assert parse_choice("9", menu) is None and parse_choice("x", menu) is None
    assert render_menu(menu).endswith("Choose: ")


def test_the_table_shows_the_line_hand_counts_boneyard_scores_and_turn_in_russian() -> None:
    state = deal(DRAW_RULES, ["1|4", "1|1 1|2 4|4 0|0 0|2 0|3 0|5"])
    state.apply(0, Play(parse_tile("1|4")))
    text = render_table(HandView(state, 1), ["Аня", "Борис"], [12, 30], 100, "ru")
    assert "Линия: Кости: [1|4]." in text
    assert "Ваши кости: [0|0] [0|2] [0|3] [0|5] [1|1] [1|2] [4|4]" in text
    assert "Аня: костей: 6" in text
    assert "Базар: 14 (последние 2 не берут)" in text
    assert "Счёт (до 100): Аня 12, Борис 30" in text
    assert text.endswith("Ваш ход.")


def test_a_stalling_seat_is_not_called_a_cheater() -> None:
    from p2p_dominoes.session.events import Blame, CheatingDetected
    from p2p_dominoes.ui import narrate

    names = ["Ann", "Bob"]
    reason = "sent nothing for 180 s when its play3 was expected"
    stall = CheatingDetected(Blame(1, reason, "stall", expected="play3"))
    cheat = CheatingDetected(Blame(1, "wrong decryption share", "bad-proof"))
    # In players' words, never the message's name (net/verdict.py).
    assert narrate(stall, names) == ["STOPPED: Bob is not responding — it was Bob's turn to play"]
    assert narrate(cheat, names)[0].startswith("CHEATING: Bob")
    assert narrate(stall, names, "ru")[0].startswith("ОСТАНОВКА: Bob не отвечает")


def test_after_a_first_double_the_menu_offers_a_second_double_or_skip() -> None:
    rules = dataclasses.replace(DRAW_RULES, name="two-doubles", two_doubles=True)
    state = deal(rules, ["1|1 1|2 3|3 0|5", "0|1 2|2"])
    state.apply(0, Play(parse_tile("1|1")))
    menu = action_menu(HandView(state, 0))
    assert [i.key for i in menu] == ["s"]  # [3|3] does not fit; no draw or pass now
    assert parse_choice("s", menu) is SKIP
    assert menu[0].label == "no second double (skip)"
    assert action_menu(HandView(state, 0), "ru")[0].label == "без второго дубля (пропустить)"


def test_fives_shows_the_points_of_the_hand_and_offers_each_double_both_ways() -> None:
    from p2p_dominoes.engine import PRESETS

    state = deal(PRESETS["fives"], ["2|3 4|4", "3|3 0|1"])
    state.apply(0, Play(parse_tile("2|3")))  # S = 5: one point
    view = HandView(state, 1)
    text = render_table(view, ["Ann", "Bob"], [0, 0], 25)
    assert "This hand: Ann +1, Bob +0" in text and "End total: 5." in text
    labels = [item.label for item in action_menu(view) if isinstance(item.action, Play)]
    assert "play [3|3] on [2|3] (high end)" in labels
    assert "play [3|3] on [2|3] (high end), along" in labels
    assert "В этой раздаче: Ann +1, Bob +0" in render_table(view, ["Ann", "Bob"], [0, 0], 25, "ru")


def test_threes_for_luck_shows_wins_and_penalties_apart() -> None:
    from p2p_dominoes.engine import PRESETS

    state = deal(PRESETS["threes-luck"], ["2|2 0|5", "2|4 0|6"])
    state.apply(0, Play(parse_tile("2|2")))  # the hand's first double: +8
    text = render_table(HandView(state, 1), ["Ann", "Bob"], [0, 0], 0)
    assert "This hand: Ann wins 8, penalties 0, Bob wins 0, penalties 0" in text


def test_threes_for_luck_counts_the_tries_of_the_turn() -> None:
    from p2p_dominoes.engine import PRESETS

    rules = PRESETS["threes-luck"]
    state = deal(rules, ["2|2 0|5", "6|6 6|5"], boneyard="6|4 6|3 6|1")
    state.apply(0, Play(parse_tile("2|2")))
    view = HandView(state, 1)
    draw = next(item for item in action_menu(view) if item.action is DRAW)
    assert draw.label == f"try my luck (draw; 0 of {rules.draw_limit} drawn)"
    state.apply(1, DRAW)
    state.apply(1, DRAW)
    view = HandView(state, 1)
    draw = next(item for item in action_menu(view) if item.action is DRAW)
    assert draw.label == f"try my luck (draw; 2 of {rules.draw_limit} drawn)"
    text = render_table(view, ["Ann", "Bob"], [0, 0], 0)
    assert f"Bob has drawn 2 of {rules.draw_limit} this turn" in text
    ru = render_table(view, ["Аня", "Борис"], [0, 0], 0, "ru")
    assert f"Борис: взято 2 из {rules.draw_limit} за этот ход" in ru
    labels = [item.label for item in action_menu(view, "ru")]
    assert f"попытать счастья (взять; взято 2 из {rules.draw_limit})" in labels
