"""What the page is told in games that score during play: across or along for a double (with
each way's end total and points), the flash of a scoring move, Threes for luck's draws this turn,
and a result sentence that is not a pip sum."""

import random

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import (
    DRAW,
    PRESETS,
    Action,
    HandEnd,
    HandScoring,
    HandState,
    HandView,
    Play,
    SeatView,
    parse_tile,
)
from p2p_dominoes.engine.scoring import DuringPlay, HandResult
from p2p_dominoes.engine.turns import TurnNote
from p2p_dominoes.session.events import ActionTaken, Event
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.ui.web.page_commands import action_from
from p2p_dominoes.ui.web.page_moves import drawn_this_turn, orientation_options, play_options
from p2p_dominoes.ui.web.score_words import result_words, score_flash
from p2p_dominoes.ui.web.snapshot import chain, table_snapshot
from p2p_dominoes.ui.web.table_progress import TableProgress
from tests.engine.dealing import deal

FIVES = PRESETS["fives"]
LUCK = PRESETS["threes-luck"]


def _fives_after_4_6() -> tuple[HandState, HandView]:
    """Fives: [4|6] led; the other seat holds [6|6] (across: 4 + 6 + 6 = 16, along: 4 + 6 = 10)."""
    state = deal(FIVES, ["4|6 1|2", "6|6 1|3"])
    state.apply(0, Play(parse_tile("4|6")))
    return state, HandView(state, 1)


def test_a_double_that_may_lie_either_way_offers_both_with_their_totals_and_points() -> None:
    state, view = _fives_after_4_6()
    _, ends = chain(state.line)
    assert play_options(view, ends)["6|6"] == ["right"]  # one end, listed once
    ways = orientation_options(view, ends, state.line)
    assert ways == {
        "6|6": {
            "right": {
                "across": {"total": 16, "points": 0},
                "along": {"total": 10, "points": 2},
            }
        }
    }


def test_the_page_command_says_along_and_gets_the_along_play() -> None:
    state, view = _fives_after_4_6()
    line = state.line
    across = action_from({"type": "play", "tile": "6|6", "end": "right"}, view, line)
    along = action_from({"type": "play", "tile": "6|6", "end": "right", "along": True}, view, line)
    assert isinstance(across, Play) and not across.along
    assert isinstance(along, Play) and along.along
    assert (
        action_from({"type": "play", "tile": "6|6", "end": "right", "along": 1}, view, line) is None
    )
    # Along is only for a double.
    assert (
        action_from({"type": "play", "tile": "3|6", "end": "right", "along": True}, view, line)
        is None
    )


def test_a_scoring_move_flashes_its_points_and_the_ends_total_in_both_languages() -> None:
    state, view = _fives_after_4_6()
    along = next(p for p in view.legal_plays() if p.along)
    state.apply(1, along)
    notes = state.notes
    assert score_flash(notes, "en") == [
        {"seat": 1, "kind": "score", "points": 2, "text": "+2: 10 at the ends"}
    ]
    assert score_flash(notes, "ru")[0]["text"] == "+2: сумма концов 10"
    penalty = [TurnNote("penalty", 0, count=2, points=10, why="draws")]
    assert score_flash(penalty, "en")[0]["text"] == "−10: 2 drawn, no score"
    assert score_flash(penalty, "ru")[0]["text"] == "−10: взято 2, без очков"
    lucky = [TurnNote("score", 0, 12, points=10, why="lucky-draw")]
    assert score_flash(lucky, "en")[0]["text"] == "+10: a drawn tile, 12 at the ends"
    # The line says the double lies along: the board draws it lengthwise.
    tiles, _ = chain(state.line)
    assert tiles[1]["tile"] == "6|6"


def _trier(view: SeatView, rng: random.Random) -> Action:
    """A player who tries their luck (draws) whenever they may while holding under 9 tiles,
    else plays at random."""
    if view.can_draw() and len(view.hand) < 9:
        return DRAW
    return random_bot(view, rng)


def _luck_table() -> LocalTable:
    table = LocalTable.create(LUCK, ["a", "b"], [_trier, random_bot], max_hands=1, seed=1)
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    return table


def test_threes_for_luck_tells_whose_turn_draws_how_many_of_five() -> None:
    table = _luck_table()
    session = table.sessions[0]
    seen = set()
    tried = 0
    drawn: set[str] = set()  # seat 0's tiles drawn in its turn under way, from its events

    def watch(seat: int, event: Event) -> None:
        if seat != 0 or not isinstance(event, ActionTaken):
            return
        if event.seat != 0 or event.action != DRAW:
            drawn.clear()  # someone else moved, or seat 0 played or passed: a new turn
        elif event.drawn is not None:
            drawn.add(event.drawn.key)

    table.on_event = watch
    while table.step():
        hand = session.hand
        if hand is None or hand.public is None or hand.public.over:
            continue
        if hand.public.turn == 0:  # what the across/along look-ahead scores as a lucky draw
            assert drawn_this_turn(session) == drawn
            tried += bool(drawn)
        fingerprints = [k.fingerprint for k in session.transcript.keys]
        shown = table_snapshot(session, ["a", "b"], fingerprints, TableProgress(), "en")
        draws = shown["luck_draws"]
        assert draws == {
            "seat": hand.public.turn,
            "drawn": hand.public.draws_this_turn,
            "limit": 5,
        }
        seen.add(draws["drawn"])
    assert 0 in seen and max(seen) > 1 and tried


def test_the_result_of_a_hand_scored_during_play_is_not_said_as_a_pip_sum() -> None:
    names = ["Ann", "Bob"]
    # Fives: Ann went out with 3 from play and the +2 bonus; Bob's pips happen to be 5 too.
    fives = HandResult(
        HandEnd.DOMINO,
        0,
        (5, 1),
        (0, 5),
        closer=0,
        scoring=HandScoring.NONE,
        during_play=DuringPlay(move_points=(3, 1), bonuses=(2, 0)),
    )
    words = result_words(fives, names, "en")
    assert "Bob's 5" not in words and "bonus +2 to Ann" in words
    # A block: +1 to the single lowest hand, said as such (not "holds the fewest pips: …").
    block = fives._replace(
        end=HandEnd.BLOCK,
        closer=None,
        pips=(3, 9),
        points=(4, 1),
        during_play=DuringPlay(move_points=(3, 1), bonuses=(1, 0)),
    )
    words = result_words(block, names, "en")
    assert words == "Block; bonus +1 to Ann; points this hand: Ann 4, Bob 1.", words
    assert result_words(block, names, "ru").startswith("Рыба; надбавка +1: Ann")
    # Threes for luck: nets 18 and 5, Ann takes the difference.
    luck = HandResult(
        HandEnd.DOMINO,
        0,
        (18, 5),
        (0, 4),
        closer=0,
        scoring=HandScoring.LUCK_SETTLEMENT,
        during_play=DuringPlay(tallies=((18, 0), (5, 0)), settlement=(13, 0)),
    )
    assert result_words(luck, names, "en").endswith("Ann takes the difference: 18 − 5 = 13.")
    assert result_words(luck, names, "ru").endswith("Ann забирает разницу: 18 − 5 = 13.")
    negative = luck._replace(points=(5, -10))
    negative = negative._replace(during_play=DuringPlay(settlement=(15, 0)))
    assert result_words(negative, names, "en").endswith("5 − (−10) = 15.")
