"""The terminal UI's text: the table, the menu of legal actions, and reading a choice."""

import dataclasses
from pathlib import Path

from p2p_dominoes.engine import DRAW, DRAW_RULES, HandView, Place, Play, Side, describe, parse_tile
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.ui.terminal import (
    action_menu,
    board_sentence,
    choice_problem,
    parse_choice,
    render_menu,
    render_table,
)
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
    assert "Линия: [1|4]\n" in text  # a compact line of tiles, not the sentence
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


def test_trains_in_the_terminal_name_their_seats_counted_from_1() -> None:
    from p2p_dominoes.engine import PRESETS

    rules = dataclasses.replace(PRESETS["trains"], first_opener="highest-double")
    state = deal(rules, ["6|6 1|6", "4|6 3|4"])
    state.apply(0, Play(parse_tile("6|6")))
    view = HandView(state, 1)
    text = render_table(view, ["Ann", "Bob"], [0, 0], 100)
    assert (
        "Places: 1) [6|6] (train of seat 1, 6); 2) [6|6] (train of seat 2, 6); "
        "3) [6|6] (common train, 6)"
    ) in text
    assert "train of seat 1: — · train of seat 2: — · common train: —" in text
    labels = [item.label for item in action_menu(view, "ru")]
    assert "положить [4|6] к [6|6] (поезд места 2), место 2" in labels, labels
    ru = render_table(view, ["Аня", "Борис"], [0, 0], 100, "ru")
    assert "Стол: [6|6] поезд места 1: — · поезд места 2: —" in ru
    assert "Trains: seat 1 — private; seat 2 — private" in board_sentence(view)  # the `b` key
    assert "Поезда: место 1 — закрыт; место 2 — закрыт" in board_sentence(view, "ru")


# -- issue 24, item 14: a wrong choice is explained, the board is a line of tiles, waiting is one
# line --------------------------------------------------------------------------------------------


def _after_1_4() -> HandView:
    """Bob's turn after Ann led [1|4]: [1|1], [1|2] and [4|4] fit, and he may draw."""
    state = deal(DRAW_RULES, ["1|4", "1|1 1|2 4|4 0|0 0|2 0|3 0|5"])
    state.apply(0, Play(parse_tile("1|4")))
    return HandView(state, 1)


def test_a_wrong_choice_says_what_was_wrong_and_what_to_type() -> None:
    view = _after_1_4()
    menu = action_menu(view)
    how = "Type 1–3, d or b, or a tile you can play, such as 1|1."
    assert choice_problem("x", menu, view.hand) == f"“x” is not a choice. {how}"
    assert choice_problem("  ", menu, view.hand) == f"Nothing was typed. {how}"
    assert choice_problem("9", menu, view.hand) == f"There is no choice 9. {how}"
    assert choice_problem("0|5", menu, view.hand) == f"[0|5] fits no open place now. {how}"
    assert choice_problem("6|5", menu, view.hand) == f"You do not hold [5|6]. {how}"
    ru = action_menu(view, "ru")
    assert choice_problem("x", ru, view.hand, "ru") == (
        "«x» — такого варианта нет. Введите 1–3, d или b — или кость, которую можно положить, "
        "например 1|1."
    )
    assert choice_problem("[5|6]", ru, view.hand, "ru").startswith("У вас нет [5|6]. Введите")


def test_a_tile_that_fits_two_ways_asks_for_its_number() -> None:
    from p2p_dominoes.engine import PRESETS

    state = deal(PRESETS["fives"], ["2|3 4|4", "3|3 0|1"])
    state.apply(0, Play(parse_tile("2|3")))
    view = HandView(state, 1)
    menu = action_menu(view)
    assert parse_choice("3|3", menu) is None  # across or along: the tile alone does not say
    assert choice_problem("3|3", menu, view.hand).startswith(
        "[3|3] fits more than one place: type its number (1 or 2)."
    )
    assert choice_problem("3|3", action_menu(view, "ru"), view.hand, "ru").startswith(
        "[3|3] подходит к нескольким местам: введите номер (1 или 2)."
    )


def test_the_board_is_a_compact_line_of_tiles_and_the_sentence_is_one_key_away() -> None:
    state = deal(DRAW_RULES, ["1|4 4|4", "1|1 3|4"])
    state.apply(0, Play(parse_tile("1|4")))
    state.apply(1, Play(parse_tile("1|1"), Place.of(parse_tile("1|4"), Side.LOW)))
    state.apply(0, Play(parse_tile("4|4"), Place.of(parse_tile("1|4"), Side.HIGH)))
    state.apply(1, Play(parse_tile("3|4"), Place.of(parse_tile("4|4"), Side.B)))
    view = HandView(state, 0)
    text = render_table(view, ["Ann", "Bob"], [0, 0], 100)
    assert text.splitlines()[0] == "Line: [1|1][1|4][4|4][4|3]"
    assert "Tiles:" not in text and "Connections" not in text
    assert render_table(view, ["Аня", "Борис"], [0, 0], 100, "ru").startswith(
        "Линия: [1|1][1|4][4|4][4|3]\n"
    )
    menu = render_menu(action_menu(view))
    assert "\n  b) the board in words\nChoose: " in menu
    assert "  b) стол словами\n" in render_menu(action_menu(view, "ru"), "ru")
    assert board_sentence(view) == describe(state.line)
    assert board_sentence(view, "ru").startswith("Кости: [1|4], [1|1], [4|4], [3|4].")


def test_a_shape_shows_its_arms_and_trains_their_owners() -> None:
    from p2p_dominoes.engine import PRESETS

    cross = deal(PRESETS["telephone"], ["3|3 3|5", "2|3 1|5"])
    cross.apply(0, Play(parse_tile("3|3")))
    cross.apply(1, Play(parse_tile("2|3"), Place.of(parse_tile("3|3"), Side.A)))
    text = render_table(HandView(cross, 0), ["Ann", "Bob"], [0, 0], 100)
    assert text.splitlines()[0] == "Table: [3|3] A: [3|2] · B: — · C: — · D: —", text
    rules = dataclasses.replace(PRESETS["trains"], first_opener="highest-double")
    trains = deal(rules, ["6|6 1|6", "4|6 3|4"])
    trains.apply(0, Play(parse_tile("6|6")))
    trains.apply(1, Play(parse_tile("4|6"), Place.of(parse_tile("6|6"), Side.T1)))
    line = render_table(HandView(trains, 0), ["Ann", "Bob"], [0, 0], 100, "ru").splitlines()[0]
    assert line == ("Стол: [6|6] поезд места 1: — · поезд места 2: [6|4] · общий поезд: —"), line


def test_waiting_is_one_line_in_place_at_a_terminal_and_sparse_elsewhere() -> None:
    from p2p_dominoes.ui.text import CLEAR_LINE, TextUI

    printed: list[str] = []
    ui = TextUI("en", out=printed.append)  # not a terminal: a log, a pipe
    for seconds in (3, 8, 13, 18, 23, 28, 33, 38):
        ui.waiting("Bob", seconds)
    ui.waiting("Cid", 3)  # someone else: said at once
    ui.waiting("Cid", 1)  # a new wait for the same player
    assert printed == [
        "  waiting for Bob (3 s)",
        "  waiting for Bob (33 s)",
        "  waiting for Cid (3 s)",
        "  waiting for Cid (1 s)",
    ]
    status: list[str] = []
    lines: list[str] = []
    tty = TextUI("ru", out=lines.append, status=status.append)  # a terminal
    tty.waiting("Борис\x1b[2J", 3)
    tty.waiting("Борис\x1b[2J", 8)
    assert status == [CLEAR_LINE + "  ждём: Борис[2J (3 с)", CLEAR_LINE + "  ждём: Борис[2J (8 с)"]
    assert lines == []  # nothing scrolled
    tty.say("Борис кладёт [1|4]")
    assert status[-1] == CLEAR_LINE and lines == ["Борис кладёт [1|4]"]
    tty.say("next")
    assert status.count(CLEAR_LINE) == 1  # cleared once, when the line was showing


def test_a_real_terminal_rewrites_the_waiting_line_in_place_and_a_log_gets_it_sparingly(
    tmp_path: Path,
) -> None:
    """Ann hosts at a real terminal (a pseudo-terminal); Bob joins with the text UI writing to
    a file (not a terminal). While Bob thinks, Ann's screen rewrites one line ("\\r", clear to
    its end) instead of scrolling a new one every 5 s; while Ann thinks, Bob's log gets one
    "waiting for Ann" line, not one every 5 s. Then both play the hand out."""
    import re
    import sys
    import time

    import pexpect

    from p2p_dominoes.ui.text import CLEAR_LINE
    from tests.net.lan_peers import Peer, cli_argv, peers

    loopback = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns")
    ann = pexpect.spawn(
        sys.executable,
        [
            "-m", "p2p_dominoes", "host", "--name", "Ann", "--players", "2", "--hands", "1",
            "--no-ask", "--data-dir", str(tmp_path / "ann"), *loopback,
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )  # fmt: skip
    waiting_bob = re.escape(CLEAR_LINE) + r"  waiting for Bob \((\d+) s\)"
    keys = re.compile(r"^\s+([0-9]+|d|p)\) ", re.MULTILINE)
    tty_checked = pipe_checked = False
    try:
        ann.expect(r"is open on port (\d+)\.")
        port = int(ann.match.group(1))
        with peers() as started:
            bob = Peer(
                "Bob",
                cli_argv(
                    "join", "--connect", f"127.0.0.1:{port}", "--name", "Bob", "--ui", "text",
                    "--data-dir", str(tmp_path / "bob"), *loopback,
                ),
                tmp_path,
                typed=True,
            )  # fmt: skip
            started.append(bob)
            menus_answered = 0
            deadline = time.monotonic() + 150
            while time.monotonic() < deadline:
                shown = ann.expect(
                    ["Choose: ", r"final transcript hash: [0-9a-f]{64}", pexpect.TIMEOUT],
                    timeout=0.1,
                )
                if shown == 1:
                    break
                if shown == 0:  # Ann's turn: Bob's log waits for her
                    screen = ann.before
                    if not pipe_checked:
                        asked = time.monotonic()
                        bob.wait_for(re.compile(r"waiting for Ann \(\d+ s\)"))
                        # Let the runtime's next notice (every 5 s) come and go: the time
                        # passing is what is tested, nothing is synchronised by it.
                        while time.monotonic() - asked < 9:
                            time.sleep(0.2)
                        told = re.findall(r"waiting for Ann.*", bob.stdout)
                        assert len(told) == 1, bob.stdout
                        assert "\r" not in bob.stdout and "\x1b[K" not in bob.stdout
                        pipe_checked = True
                    ann.sendline(keys.findall(screen)[0])
                    continue
                if bob.stdout.count("Choose: ") > menus_answered:  # Bob's turn
                    just_checked = not tty_checked
                    if just_checked:
                        ann.expect(waiting_bob)
                        first = int(ann.match.group(1))
                        ann.expect(waiting_bob)
                        assert int(ann.match.group(1)) > first
                        assert "\n" not in ann.before, repr(ann.before)  # rewritten, not scrolled
                        tty_checked = True
                    menus_answered = bob.stdout.count("Choose: ")
                    last = bob.stdout[bob.stdout.rfind("Your tiles:") :]
                    bob.type_line(keys.findall(last)[0])
                    if just_checked:
                        # What happens next clears the waiting line before it is printed.
                        ann.expect(re.escape(CLEAR_LINE) + r"[^\r\n]*Bob")
            else:
                raise AssertionError(f"the hand did not end:\n{ann.before}\n{bob}")
            assert bob.wait(30) == 0, bob
        ann.expect(pexpect.EOF)
    finally:
        ann.close(force=True)
    assert tty_checked and pipe_checked
    assert ann.exitstatus == 0
