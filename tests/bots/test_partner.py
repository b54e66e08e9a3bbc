"""The `partner` strategy as a Kozel player would describe it: block the opponent who moves
next when his passes showed what he lacks, never leave your partner without a move when his
passes showed it, and decide only from what the seat may see."""

from __future__ import annotations

import random

from p2p_dominoes.bots import BOTS, default_bot_name, partner_bot
from p2p_dominoes.engine import (
    PASS,
    TILES,
    Action,
    HandState,
    HandView,
    Line,
    Play,
    Rules,
    parse_tile,
    preset,
)

KOZEL = preset("kozel")


class TableView:
    """What seat `seat` sees: its tiles and a public history, the table rebuilt from it."""

    def __init__(self, seat: int, hand: str, history: list[tuple[int, str, str, str]]) -> None:
        self.seat = seat
        self.rules: Rules = KOZEL
        self.hand = [parse_tile(t) for t in hand.split()]
        self.line = Line()
        self.history: list[tuple[int, Action]] = []
        for who, tile, at, side in history:
            if tile == "pass":
                self.history.append((who, PASS))
                continue
            place = next(
                (p for p in self.line.places if p.tile.text == f"[{at}]" and p.side.value == side),
                None,
            )
            play = Play(parse_tile(tile), place)
            self.line.lay(play.tile, play.place)
            self.history.append((who, play))
        self.tile_counts = (7, 7, 7, 7)
        self.boneyard_size = 0
        self.turn = seat

    def legal_plays(self) -> list[Play]:
        return [Play(t, p) for t in self.hand for p in self.line.places_for(t)]

    def can_draw(self) -> bool:
        return False

    def can_pass(self) -> bool:
        return not self.legal_plays()

    def can_skip(self) -> bool:
        return False


def test_it_blocks_the_next_opponent_who_showed_he_lacks_the_ends() -> None:
    # Dan (seat 3) passed on 1 and 3, Bob (seat 1) on 1. Cid (seat 2) holds [1|6] and [4|6]:
    # greedy lays the heavier [4|6]; a partner lays [1|6] and leaves 1 and 1: Dan must pass.
    view = TableView(
        2,
        "1|6 4|6 3|3",
        [
            (0, "1|1", "", ""),
            (1, "pass", "", ""),
            (2, "1|3", "1|1", "A"),
            (3, "pass", "", ""),
            (0, "3|5", "1|3", "high"),
            (1, "5|6", "3|5", "high"),
        ],
    )
    assert sorted(p.value for p in view.line.places) == [1, 6]
    assert BOTS["greedy"](view, random.Random(1)).tile.text == "[4|6]"  # type: ignore[arg-type, union-attr]
    choice = partner_bot(view, random.Random(1))
    assert isinstance(choice, Play) and choice.tile.text == "[1|6]"


def test_it_does_not_leave_its_partner_without_a_move() -> None:
    # Ann (seat 0, Cid's partner) and Bob passed on 4 and 6. Cid could lay the heavy [4|6],
    # but either way it leaves only 4s or only 6s — Ann could not move; he lays [0|4] instead.
    view = TableView(
        2,
        "4|6 0|4 3|3",
        [
            (0, "1|1", "", ""),
            (1, "1|4", "1|1", "A"),
            (2, "1|6", "1|1", "B"),
            (3, "4|4", "1|4", "high"),
            (0, "pass", "", ""),
            (1, "pass", "", ""),
        ],
    )
    assert sorted(p.value for p in view.line.places) == [4, 6]
    assert BOTS["greedy"](view, random.Random(1)).tile.text == "[4|6]"  # type: ignore[arg-type, union-attr]
    choice = partner_bot(view, random.Random(1))
    assert isinstance(choice, Play) and choice.tile.text == "[0|4]"


def test_it_plays_only_legal_moves_and_decides_from_the_view_alone() -> None:
    rng = random.Random(4)
    for _ in range(20):
        deck = list(TILES)
        rng.shuffle(deck)
        hands = [deck[7 * s : 7 * (s + 1)] for s in range(4)]
        one_one = parse_tile("1|1")
        opener = next(s for s, h in enumerate(hands) if one_one in h)
        state = HandState(KOZEL, hands, [], opener, one_one)
        while state.result is None:
            seat = state.turn
            action = partner_bot(HandView(state, seat), random.Random(0))
            assert action in state.legal_actions()
            state.apply(seat, action)


def test_kozel_bots_play_partner_unless_told() -> None:
    assert default_bot_name(KOZEL) == "partner"
    assert default_bot_name(preset("house")) == "random"
