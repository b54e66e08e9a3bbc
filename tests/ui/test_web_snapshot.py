"""What the page is told: the line from end to end, where a tile fits, and why buttons are off."""

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import (
    BLOCK,
    DRAW_RULES,
    HandEnd,
    HandResult,
    HandView,
    Place,
    Play,
    Side,
    goal_text,
    parse_tile,
)
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.session.events import Blame
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.ui.web.page_moves import draw_and_pass, end_of, play_options
from p2p_dominoes.ui.web.score_words import result_words
from p2p_dominoes.ui.web.snapshot import chain, stopped_json, table_snapshot
from p2p_dominoes.ui.web.table_progress import TableProgress
from tests.engine.dealing import deal


def play(tile: str, at: str | None = None, side: str | None = None) -> Play:
    if at is None:
        return Play(parse_tile(tile))
    assert side is not None
    return Play(parse_tile(tile), Place.of(parse_tile(at), Side(side)))


def test_the_line_reads_from_end_to_end_with_halves_facing_neighbours() -> None:
    state = deal(DRAW_RULES, ["1|4 4|4", "1|1 3|4"])
    state.apply(0, play("1|4"))
    state.apply(1, play("1|1", "1|4", "low"))
    state.apply(0, play("4|4", "1|4", "high"))
    state.apply(1, play("3|4", "4|4", "B"))
    tiles, ends = chain(state.line)
    assert [(t["tile"], t["left"], t["right"]) for t in tiles] == [
        ("1|1", 1, 1),
        ("1|4", 1, 4),
        ("4|4", 4, 4),
        ("3|4", 4, 3),
    ]
    assert ends["left"] is Place.of(parse_tile("1|1"), Side.B)
    assert ends["right"] is Place.of(parse_tile("3|4"), Side.LOW)


def test_playable_tiles_name_the_ends_they_fit() -> None:
    state = deal(DRAW_RULES, ["1|4", "1|1 4|5 0|0 0|2 0|3 0|5 0|6"])
    state.apply(0, play("1|4"))
    view = HandView(state, 1)
    _, ends = chain(state.line)
    options = play_options(view, ends)
    assert options == {"1|1": ["left"], "4|5": ["right"]}
    assert end_of(next(p for p in view.legal_plays() if p.tile.key == "4|5"), ends) == "right"


def test_draw_and_pass_are_off_with_a_reason() -> None:
    state = deal(BLOCK, ["0|0", "1|1 1|2 1|3 1|4 1|5 1|6 2|2"])
    state.apply(0, play("0|0"))
    controls = draw_and_pass(HandView(state, 1), "en")
    assert controls["can_pass"] and not controls["can_draw"]
    assert controls["draw_reason"] == "These rules have no drawing."
    other = draw_and_pass(HandView(state, 0), "ru")
    assert other["draw_reason"] == other["pass_reason"] == "Сейчас не ваш ход."
    state2 = deal(DRAW_RULES, ["1|4", "1|1 4|5 0|0 0|2 0|3 0|5 0|6"])
    state2.apply(0, play("1|4"))
    controls2 = draw_and_pass(HandView(state2, 1), "en")
    assert controls2["can_draw"] and not controls2["can_pass"]
    assert controls2["pass_reason"] == "You hold a tile that fits."


def test_the_table_screen_carries_the_table_code_once_every_seat_has_signed() -> None:
    table = LocalTable.create(DRAW_RULES, ["a", "b"], [random_bot, random_bot], max_hands=1)
    names = ["a", "b"]
    fingerprints = [k.fingerprint for k in table.sessions[0].transcript.keys]
    before = table_snapshot(table.sessions[1], names, fingerprints, TableProgress(), "en")
    assert before["code"] is None  # nothing to compare before every nonce is revealed
    table.run()
    shown = [
        table_snapshot(s, names, fingerprints, TableProgress(), "ru")["code"]
        for s in table.sessions
    ]
    code = table.sessions[0].table_code
    assert code is not None
    assert (
        shown[0]
        == shown[1]
        == {
            "en": list(code.words("en")),
            "ru": list(code.words("ru")),
            "digits": code.digits,
        }
    )


def test_a_stop_says_why_in_the_players_language_and_offers_the_next_steps() -> None:
    names = ["Ann", "Dan"]
    progress = TableProgress(presence=Presence((), None, 180.0))
    reason = "sent nothing for 180 s when its play3 was expected"
    stall = Blame(1, reason, "stall", expected="play3")
    # The sentence every peer shows (net/verdict.py), never the message's internal name.
    assert stopped_json(stall, progress, names, "en") == {
        "reason": "stall",
        "seat": 1,
        "name": "Dan",
        "text": "The table stopped: Dan is not responding — it was Dan's turn to play.",
        "next": ["lobby", "record"],
    }
    stopped = stopped_json(stall, progress, names, "ru")
    assert stopped is not None and stopped["text"] == (
        "Стол остановлен: Dan не отвечает — был ход игрока Dan."
    )
    cheat = Blame(0, "its shuffle proof does not verify", "proof")
    stopped = stopped_json(cheat, progress, names, "en")
    assert stopped is not None and stopped["reason"] == "cheat"
    assert stopped["text"] == (
        "The table stopped: Ann broke the rules (its shuffle proof does not verify)."
    )
    progress.failure, progress.resumable = "cannot write the table's log: disk full", True
    stopped = stopped_json(None, progress, names, "en")
    assert stopped is not None and stopped["reason"] == "failure"
    assert stopped["next"] == ["lobby", "record", "resume"]
    assert stopped_json(None, TableProgress(), names, "en") is None  # playing, or a whole match


def test_the_points_of_a_hand_are_said_in_words_with_names() -> None:
    names = ["Ann", "Bob", "bot-1"]
    went_out = HandResult(HandEnd.DOMINO, 0, (28, 0, 0), (0, 8, 20))
    assert result_words(went_out, names, "en") == "Ann went out: Bob's 8 + bot-1's 20 = 28 to Ann."
    assert result_words(went_out, names, "ru") == (
        "Ann выходит: Bob 8 + bot-1 20 = 28 очк. игроку Ann."
    )
    blocked = HandResult(HandEnd.BLOCK, 1, (0, 16, 0), (12, 5, 9))
    assert result_words(blocked, names, "en") == (
        "Blocked; Bob holds the fewest pips: Ann's 12 + bot-1's 9 − Bob's 5 = 16 to Bob."
    )
    tie = HandResult(HandEnd.BLOCK, None, (0, 0, 0), (5, 5, 9))
    assert result_words(tie, names, "en") == (
        "Blocked, with a tie for the fewest pips: nobody scores."
    )


def test_the_table_screen_says_the_goal_the_rules_and_whether_there_is_a_boneyard() -> None:
    table = LocalTable.create(BLOCK, ["a", "b"], [random_bot, random_bot], max_hands=1)
    table.run()
    session = table.sessions[0]
    fingerprints = [k.fingerprint for k in session.transcript.keys]
    shown = table_snapshot(session, ["a", "b"], fingerprints, TableProgress(), "ru")
    assert shown["goal"] == goal_text(BLOCK, 2, "ru") and shown["goal"]
    assert shown["rules_summary"] == "Правила: Без базара — без изменений"
    assert shown["boneyard_in_play"] is False and shown["drawable"] == 0
    assert shown["rule_notes"] == [] and shown["closed"] == [] and shown["can_skip"] is False
    drawing = LocalTable.create(DRAW_RULES, ["a", "b"], [random_bot, random_bot], max_hands=1)
    lobby = table_snapshot(drawing.sessions[0], ["a", "b"], fingerprints, TableProgress(), "en")
    assert lobby["boneyard_in_play"] is True
    assert lobby["rules_summary"].startswith("Rules: Draw dominoes")


def _started(table: LocalTable) -> LocalTable:
    """A local table whose peers have said their first messages (as `run` starts them)."""
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    return table


def test_a_game_that_scores_during_play_shows_the_ends_total_and_the_hands_points() -> None:
    from p2p_dominoes.engine import PRESETS

    for name in ("fives", "threes-luck"):
        rules = PRESETS[name]
        table = _started(
            LocalTable.create(rules, ["a", "b"], [random_bot, random_bot], max_hands=1)
        )
        session = table.sessions[0]
        while table.step():
            hand = session.hand
            if hand is not None and hand.public is not None and len(hand.public.line.tiles) >= 2:
                break
        assert session.hand is not None and session.hand.public is not None
        public = session.hand.public
        fingerprints = [k.fingerprint for k in session.transcript.keys]
        shown = table_snapshot(session, ["a", "b"], fingerprints, TableProgress(), "en")
        assert shown["end_total"] == public.end_total()
        assert f"The ends add up to {public.end_total()}." in shown["description"]
        if name == "fives":
            assert shown["hand_points"] == list(public.move_points) and shown["luck"] is None
        else:
            assert shown["luck"] == [list(t) for t in public.luck_tallies()]
            assert shown["hand_points"] is None
    plain = _started(LocalTable.create(BLOCK, ["a", "b"], [random_bot, random_bot], max_hands=1))
    fingerprints = [k.fingerprint for k in plain.sessions[0].transcript.keys]
    while plain.step():
        hand = plain.sessions[0].hand
        if hand is not None and hand.public is not None and hand.public.line.tiles:
            break
    shown = table_snapshot(plain.sessions[0], ["a", "b"], fingerprints, TableProgress(), "en")
    assert shown["end_total"] is None and shown["hand_points"] is None and shown["luck"] is None


def test_trains_on_the_page_name_their_seats_counted_from_1() -> None:
    """The places' labels and the board sentence say "train of seat 1" for seat index 0, as the
    page's own train labels do; the rays keep their wire names ("T0")."""
    from p2p_dominoes.engine import PRESETS

    table = _started(
        LocalTable.create(PRESETS["trains"], ["a", "b"], [random_bot, random_bot], max_hands=1)
    )
    session = table.sessions[0]
    while table.step():
        hand = session.hand
        if hand is not None and hand.public is not None and hand.public.line.tiles:
            break
    fingerprints = [k.fingerprint for k in session.transcript.keys]
    english = table_snapshot(session, ["a", "b"], fingerprints, TableProgress(), "en")
    russian = table_snapshot(session, ["a", "b"], fingerprints, TableProgress(), "ru")
    labels = {end["end"]: end["label"] for end in english["ends"]}
    assert "(train of seat 1, " in labels["T0"] and "(train of seat 2, " in labels["T1"], labels
    assert "(поезд места 1, " in {e["end"]: e["label"] for e in russian["ends"]}["T0"]
    # The board in a player's words (issue 28 L5): the page's own train, the other's by name.
    assert "The engine: [" in english["description"]
    assert "Your train: " in english["description"] and "B's train: " in english["description"]
    assert "Ваш поезд: " in russian["description"] and "Поезд игрока b: " in russian["description"]
    assert "seat 0" not in english["description"] and "место 0" not in russian["description"]


def test_with_no_boneyard_the_page_speaks_of_no_reserve() -> None:
    """house with a reserve of one, four players: the whole set is dealt, so there is no
    reserve to speak of; a stuck player is told the boneyard is empty."""
    from p2p_dominoes.engine import Rules

    rules = Rules.from_dict({"base": "house", "reserve": 1})
    state = deal(
        rules,
        [
            "0|0 0|1 0|2 0|3 0|4 0|5 0|6",
            "1|1 1|2 1|3 1|4 1|5 1|6 2|2",
            "2|3 2|4 2|5 2|6 3|3 3|4 3|5",
            "3|6 4|4 4|5 4|6 5|5 5|6 6|6",
        ],
    )
    state.apply(0, play("0|0"))
    view = HandView(state, 1)
    assert view.can_pass() and not view.can_draw()
    assert draw_and_pass(view, "en")["draw_reason"] == "The boneyard is empty."
    assert draw_and_pass(view, "ru")["draw_reason"] == "Базар пуст."
    from p2p_dominoes.ui.terminal import render_table

    text = render_table(view, ["a", "b", "c", "d"], [0, 0, 0, 0], 101)
    assert "Boneyard: 0 tiles (0 never drawn)" in text


def test_a_stop_whose_reason_is_a_phrase_reads_it_in_the_pages_language() -> None:
    from p2p_dominoes.words import phrase

    names = ["Ann", "Dan"]
    progress = TableProgress(presence=Presence((), None, 180.0))
    why = phrase("engine.cannot", seat=0, action="draw", rule="x")
    cheat = Blame(0, why, "proof")
    english = stopped_json(cheat, progress, names, "en")
    assert english is not None
    assert english["text"] == "The table stopped: Ann broke the rules (seat 0 cannot draw: x)."
    russian = stopped_json(cheat, progress, names, "ru")
    assert russian is not None
    assert russian["text"] == "Стол остановлен: Ann нарушает правила (место 0 не может draw: x)."
    progress.failure = why  # a PeerFailure's Phrase, kept as one (controller._failed)
    english = stopped_json(None, progress, names, "en")
    assert english is not None
    assert english["text"] == "The table stopped here: seat 0 cannot draw: x."
    russian = stopped_json(None, progress, names, "ru")
    assert russian is not None
    assert russian["text"] == "Стол остановлен на этом компьютере: место 0 не может draw: x."
