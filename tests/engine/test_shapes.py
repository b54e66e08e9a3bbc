"""The table shapes (RULES_V2 §3): the §3.7 board descriptions word for word, illegal plays
refused with one clear line, and every legal place after every action of random hands against
`SimpleShape`, a second model of the shapes written here from the spec alone."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from p2p_dominoes.engine import (
    PRESETS,
    HandState,
    IllegalAction,
    InvalidRecord,
    Layout,
    Pass,
    Play,
    Rules,
    action_text,
    describe,
    parse_record,
    replay,
)
from p2p_dominoes.engine.board import Board
from p2p_dominoes.engine.tiles import TILES, Tile, parse_tile, tiles_in
from p2p_dominoes.simulation import deal


def t(text: str) -> Tile:
    return parse_tile(text)


def hands_for(
    players: int, size: int, wanted: list[list[str]]
) -> tuple[list[list[Tile]], list[Tile]]:
    """A deal in which seat s holds `wanted[s]` (topped up with the unwanted tiles in order)."""
    taken = {t(x) for hand in wanted for x in hand}
    rest = [tile for tile in TILES if tile not in taken]
    hands = []
    for seat in range(players):
        hand = [t(x) for x in wanted[seat]]
        while len(hand) < size:
            hand.append(rest.pop(0))
        hands.append(hand)
    return hands, rest


def state_of(rules: Rules, wanted: list[list[str]], opener: int = 0) -> HandState:
    players = len(wanted)
    hands, boneyard = hands_for(players, rules.hand_size(players), wanted)
    return HandState(rules, hands, boneyard, opener)


def lay(state: HandState, seat: int, tile: str, on: str | None = None, side: str = "") -> None:
    """Apply a play given as text; the place is found among the board's open places."""
    if on is None:
        state.apply(seat, Play(t(tile)))
        return
    place = next(p for p in state.line.all_places if p.tile is t(on) and p.side.value == side)
    state.apply(seat, Play(t(tile), place))


# -- RULES_V2 §3.7, word for word ---------------------------------------------------------------

TELEPHONE = PRESETS["telephone"]
CROSS = PRESETS["cross"]


@pytest.mark.parametrize("side", ["A", "B", "C", "D"])
def test_telephone_a_tile_on_an_untouched_centre_lies_on_side_a_whatever_part_is_named(
    side: str,
) -> None:
    state = state_of(TELEPHONE, [["3|3", "0|0"], ["3|5", "0|1"]])
    lay(state, 0, "3|3")
    assert describe(state.line) == (
        "Tiles: [3|3]. Connections: none. Open places: [3|3] (side A, 3); [3|3] (side B, 3); "
        "[3|3] (end C, 3); [3|3] (end D, 3)."
    )
    # All four parts are alike: [3|5] is offered one place, side A.
    assert [str(p) for p in state.legal_plays() if p.tile is t("3|5")] == [
        "play [3|5] on [3|3] (A)"
    ]
    lay(state, 1, "3|5", "3|3", side)
    assert describe(state.line) == (
        "Tiles: [3|3], [3|5]. Connections: [3|3] (side A) – [3|5] (low end). Open places: "
        "[3|3] (side B, 3); [3|3] (end C, 3); [3|3] (end D, 3); [3|5] (high end, 5)."
    )
    assert describe(state.line, "ru") == (
        "Кости: [3|3], [3|5]. Соединения: [3|3] (линия A) – [3|5] (конец с меньшим значением). "
        "Допустимые места продолжения: [3|3] (линия B, 3); [3|3] (конец C, 3); "
        "[3|3] (конец D, 3); [3|5] (конец с большим значением, 5)."
    )


def test_cross_opens_its_short_ends_once_both_sides_hold_a_tile() -> None:
    state = state_of(CROSS, [["3|3", "1|3", "0|0"], ["3|5", "3|6", "0|1"]])
    lay(state, 0, "3|3")
    lay(state, 1, "3|5", "3|3", "A")
    assert describe(state.line) == (
        "Tiles: [3|3], [3|5]. Connections: [3|3] (side A) – [3|5] (low end). Open places: "
        "[3|3] (side B, 3); [3|5] (high end, 5)."
    )
    lay(state, 0, "1|3", "3|3", "B")
    expected = (
        "Tiles: [3|3], [3|5], [1|3]. Connections: [3|3] (side A) – [3|5] (low end); [3|3] "
        "(side B) – [1|3] (high end). Open places: [1|3] (low end, 1); [3|3] (end C, 3); "
        "[3|3] (end D, 3); [3|5] (high end, 5)."
    )
    assert describe(state.line) == expected
    assert describe(state.line, "ru") == (
        "Кости: [3|3], [3|5], [1|3]. Соединения: [3|3] (линия A) – [3|5] (конец с меньшим "
        "значением); [3|3] (линия B) – [1|3] (конец с большим значением). Допустимые места "
        "продолжения: [1|3] (конец с меньшим значением, 1); [3|3] (конец C, 3); [3|3] "
        "(конец D, 3); [3|5] (конец с большим значением, 5)."
    )
    # While both short ends are empty they are one place, recorded as end C.
    assert [str(p) for p in state.legal_plays() if p.tile is t("3|6")] == [
        "play [3|6] on [3|3] (C)"
    ]
    lay(state, 1, "3|6", "3|3", "D")
    assert "[3|3] (end C) – [3|6] (low end)" in describe(state.line)
    assert "[3|3] (end D, 3)" in describe(state.line)


def test_line_with_the_donkey_rule_closes_an_uncovered_double() -> None:
    rules = Rules.from_dict({"base": "house", "double_closes_ray": True})
    state = state_of(rules, [["1|2", "1|4", "0|0"], ["2|2", "4|5", "0|1"]])
    lay(state, 0, "1|2")
    lay(state, 1, "2|2", "1|2", "high")
    lay(state, 0, "1|4", "1|2", "low")
    lay(state, 1, "4|5", "1|4", "high")
    assert describe(state.line) == (
        "Tiles: [1|2], [2|2], [1|4], [4|5]. Connections: [1|2] (high end) – [2|2] (side A); "
        "[1|2] (low end) – [1|4] (low end); [1|4] (high end) – [4|5] (low end). Open places: "
        "[4|5] (high end, 5). Closed places: [2|2] (side B, 2)."
    )
    assert describe(state.line, "ru") == (
        "Кости: [1|2], [2|2], [1|4], [4|5]. Соединения: [1|2] (конец с большим значением) – "
        "[2|2] (линия A); [1|2] (конец с меньшим значением) – [1|4] (конец с меньшим "
        "значением); [1|4] (конец с большим значением) – [4|5] (конец с меньшим значением). "
        "Допустимые места продолжения: [4|5] (конец с большим значением, 5). Закрытые места: "
        "[2|2] (линия B, 2)."
    )


TRAINS_FIXED_HAND = Rules.from_dict(
    {"base": "trains", "drawing": "never", "first_opener": "highest-double"}
)


def trains_example() -> HandState:
    """Seat 0 leads the engine [6|6]; each seat starts its train; seat 0, with nothing to play,
    passes and opens its train; seat 1 feeds it; seat 0 plays on it again (private again)."""
    state = state_of(
        TRAINS_FIXED_HAND,
        [["6|6", "1|6", "0|5", "0|0", "0|2", "2|2", "2|3"], ["4|6", "3|4", "1|5"]],
    )
    lay(state, 0, "6|6")
    lay(state, 1, "4|6", "6|6", "T1")
    lay(state, 0, "1|6", "6|6", "T0")
    lay(state, 1, "3|4", "4|6", "low")
    state.apply(0, Pass())
    assert "Trains: seat 1 — open to all; seat 2 — private; common — not started." in describe(
        state.line
    )
    lay(state, 1, "1|5", "1|6", "low")
    lay(state, 0, "0|5", "1|5", "high")
    return state


def test_trains_example_after_the_seventh_action() -> None:
    state = trains_example()
    assert len(state.history) == 7
    assert describe(state.line) == (
        "Tiles: [6|6], [4|6], [1|6], [3|4], [1|5], [0|5]. Connections: [6|6] (train of seat 2) "
        "– [4|6] (high end); [6|6] (train of seat 1) – [1|6] (high end); [4|6] (low end) – "
        "[3|4] (high end); [1|6] (low end) – [1|5] (low end); [1|5] (high end) – [0|5] (high "
        "end). Trains: seat 1 — private; seat 2 — private; common — not started. Open places: "
        "[0|5] (low end, 0); [3|4] (low end, 3); [6|6] (common train, 6)."
    )
    assert describe(state.line, "ru") == (
        "Кости: [6|6], [4|6], [1|6], [3|4], [1|5], [0|5]. Соединения: [6|6] (поезд места 2) "
        "– [4|6] (конец с большим значением); [6|6] (поезд места 1) – [1|6] (конец с большим "
        "значением); [4|6] (конец с меньшим значением) – [3|4] (конец с большим значением); "
        "[1|6] (конец с меньшим значением) – [1|5] (конец с меньшим значением); [1|5] (конец "
        "с большим значением) – [0|5] (конец с большим значением). Поезда: место 1 — закрыт; "
        "место 2 — закрыт; общий — не начат. Допустимые места продолжения: [0|5] (конец с "
        "меньшим значением, 0); [3|4] (конец с меньшим значением, 3); [6|6] (общий поезд, 6)."
    )


def test_a_play_on_a_train_names_its_seat_counted_from_1_like_the_player() -> None:
    """Seat index 2 feeding its own train reads "seat 3 … (train of seat 3)", never the record's
    0-based index (the issue's `место 3 кладёт [0|1] к [1|1] (поезд места 2)`)."""
    state = state_of(TRAINS_FIXED_HAND, [["1|1"], ["2|2"], ["0|1"]])
    lay(state, 0, "1|1")
    place = next(p for p in state.line.all_places if p.side.value == "T2")
    play = Play(t("0|1"), place)
    assert action_text(2, play) == "seat 3 plays [0|1] on [1|1] (train of seat 3)"
    assert action_text(2, play, lang="ru") == "место 3 кладёт [0|1] к [1|1] (поезд места 3)"
    assert action_text(2, play, names=["Ann", "Bob", "Cid"]) == (
        "Cid plays [0|1] on [1|1] (train of seat 3)"
    )
    assert "Trains: seat 1 — private; seat 2 — private; seat 3 — private;" in describe(state.line)
    assert "Поезда: место 1 — закрыт; место 2 — закрыт; место 3 — закрыт;" in describe(
        state.line, "ru"
    )


def test_the_end_total_examples_of_section_3_1() -> None:
    def total(layout: Layout, *plays: tuple[str, str, str]) -> int:
        board = Board(layout, 2)
        board.start(t(plays[0][0]))
        for tile, on, side in plays[1:]:
            place = next(p for p in board.all_places if p.tile is t(on) and p.side.value == side)
            board.attach(t(tile), place)
        return board.end_total()

    assert total(Layout.CROSS, ("2|3", "", "")) == 5
    assert total(Layout.TELEPHONE, ("5|5", "", "")) == 10
    assert total(Layout.TELEPHONE, ("4|4", "", ""), ("4|6", "4|4", "A")) == 14
    assert (
        total(Layout.TELEPHONE, ("4|4", "", ""), ("4|6", "4|4", "A"), ("6|6", "4|6", "high")) == 20
    )
    assert total(Layout.TRAINS, ("4|4", "", "")) == 8
    assert total(Layout.TRAINS, ("4|4", "", ""), ("4|6", "4|4", "T0")) == 6


# -- illegal plays: one clear line --------------------------------------------------------------


def record(
    rules: str | dict[str, Any], wanted: list[list[str]], actions: list[dict[str, Any]]
) -> dict[str, Any]:
    parsed = Rules.from_dict(rules)
    players = len(wanted)
    hands, boneyard = hands_for(players, parsed.hand_size(players), wanted)
    return {
        "rules": rules,
        "opener": 0,
        "hands": [[x.key for x in hand] for hand in hands],
        "boneyard": [x.key for x in boneyard],
        "actions": actions,
    }


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(InvalidRecord) as caught:
        replay(parse_record(data))
    text = str(caught.value)
    assert "\n" not in text
    return text


def test_a_short_end_before_the_cross_opens_is_refused() -> None:
    data = record(
        {"base": "cross", "first_opener": "lottery"},
        [["3|3", "0|0"], ["3|5", "0|1"]],
        [{"seat": 0, "play": "3|3"}, {"seat": 1, "play": "3|5", "at": "3|3", "side": "C"}],
    )
    assert refusal(data) == (
        "action 1: seat 1 cannot play [3|5]: the centre's ends C and D open once each side of "
        "it holds 1 tile"
    )


def test_another_seats_private_train_is_refused() -> None:
    data = record(
        {"base": "trains", "first_opener": "lowest-double"},
        [["0|0", "3|5"], ["0|1", "4|5"]],
        [{"seat": 0, "play": "0|0"}, {"seat": 1, "play": "0|1", "at": "0|0", "train": 0}],
    )
    assert refusal(data) == (
        "action 1: seat 1 cannot play [0|1]: that is seat 0's train, and it is not open to all"
    )


def test_a_train_named_on_a_line_is_refused() -> None:
    data = record(
        {"base": "house", "first_opener": "lottery"},
        [["3|3", "0|0"], ["3|5", "0|1"]],
        [{"seat": 0, "play": "3|3"}, {"seat": 1, "play": "3|5", "at": "3|3", "train": 1}],
    )
    assert refusal(data) == "action 1: seat 1 cannot play [3|5]: this table has no trains to name"


def test_a_play_on_a_closed_ray_is_refused() -> None:
    rules = {"base": "telephone", "first_opener": "lottery", "double_closes_ray": True}
    wanted = [["1|1", "1|2", "0|3", "2|3"], ["2|2", "1|3", "0|5", "0|6"]]
    actions = [
        {"seat": 0, "play": "1|1"},
        {"seat": 1, "play": "1|3", "at": "1|1", "side": "A"},
        {"seat": 0, "play": "1|2", "at": "1|1", "side": "B"},
        {"seat": 1, "play": "2|2", "at": "1|2", "side": "high"},  # the clock starts
        {"seat": 0, "play": "0|3", "at": "1|3", "side": "high"},
        {"seat": 1, "play": "0|5", "at": "0|3", "side": "low"},  # [2|2] closes at its end
    ]
    outcome = replay(parse_record(record(rules, wanted, actions)))
    assert "Closed places: [2|2] (side B, 2)." in describe(outcome.state.line)
    data = record(rules, wanted, [*actions, {"seat": 0, "play": "2|3", "at": "2|2", "side": "B"}])
    assert refusal(data) == "action 6: seat 0 cannot play [2|3]: that place is closed"


def test_a_lead_on_trains_must_be_a_double() -> None:
    state = state_of(PRESETS["trains"], [["1|2", "0|0"], ["3|5", "0|1"]])
    with pytest.raises(IllegalAction) as caught:
        lay(state, 0, "1|2")
    assert str(caught.value) == "seat 0 cannot play [1|2]: trains start from a double (the engine)"
    assert all(p.tile.is_double for p in state.legal_plays())


# -- a second, simple model of the shapes -------------------------------------------------------


@dataclass
class _Ray:
    end: tuple[Tile, str, int] | None  # (tile, part, number) of its open place
    tiles: int = 0


@dataclass
class SimpleShape:
    """The open places of a shape, from RULES_V2 §3 alone: rays with one open end each."""

    layout: str
    players: int
    quota: int
    rays: dict[str, _Ray] = field(default_factory=dict)
    centre: Tile | None = None
    opened: set[int] = field(default_factory=set)
    laid: int = 0
    short_ends_used: int = 0

    def reach(self, seat: int) -> list[tuple[Tile, str, int]]:
        """The places `seat` may play on, with symmetric places once."""
        names = list(self.rays)
        if self.layout == "trains":
            names = [n for n in names if n in (f"T{seat}", "TC") or n[1:] in map(str, self.opened)]
        ends = [self.rays[n].end for n in names if self.rays[n].end is not None]
        out = [e for e in ends if e is not None]
        if self.laid == 1 and self.layout != "trains" and out and out[0][0].is_double:
            return out[:1]  # an untouched lead double: one place, side A
        parts = {(e[0], e[1]) for e in out}
        if self.centre is not None and (self.centre, "C") in parts and (self.centre, "D") in parts:
            out = [e for e in out if (e[0], e[1]) != (self.centre, "D")]
        return out

    def lead(self, tile: Tile) -> None:
        self.laid = 1
        v = tile.high
        if self.layout == "trains":
            for seat in range(self.players):
                self.rays[f"T{seat}"] = _Ray((tile, f"T{seat}", v))
            self.rays["TC"] = _Ray((tile, "TC", v))
        elif tile.is_double:
            self.centre = tile
            self.rays = {"A": _Ray((tile, "A", v)), "B": _Ray((tile, "B", v))}
            if self.layout == "telephone":
                self.rays |= {"C": _Ray((tile, "C", v)), "D": _Ray((tile, "D", v))}
        else:
            self.rays = {"x": _Ray((tile, "high", tile.high)), "y": _Ray((tile, "low", tile.low))}

    def play(self, seat: int, tile: Tile, at: Tile, part: str) -> None:
        self.laid += 1
        if self.laid == 2 and at.is_double and self.layout != "trains":
            part = "A"
        name = next(
            n for n, r in self.rays.items() if r.end is not None and r.end[:2] == (at, part)
        )
        value = self.rays[name].end[2]  # type: ignore[index]
        free = (
            ("B", tile.low)
            if tile.is_double
            else (("low", tile.low) if tile.high == value else ("high", tile.high))
        )
        if self.layout in ("cross", "telephone") and self.centre is None and tile.is_double:
            other = [r for n, r in self.rays.items() if n != name]
            self.centre = tile
            self.rays = {
                "A": _Ray(other[0].end if other else None, self.laid - 1),
                "B": _Ray((tile, "B", tile.low)),
            }
            if self.layout == "telephone":
                self.rays |= {"C": _Ray((tile, "C", tile.low)), "D": _Ray((tile, "D", tile.low))}
            return
        ray = self.rays[name]
        ray.end = (tile, *free)
        ray.tiles += 1
        if self.layout == "trains" and name == f"T{seat}":
            self.opened.discard(seat)
        if (
            self.layout == "cross"
            and self.centre is not None
            and "C" not in self.rays
            and self.rays["A"].tiles >= self.quota
            and self.rays["B"].tiles >= self.quota
        ):
            c = self.centre
            self.rays |= {"C": _Ray((c, "C", c.low)), "D": _Ray((c, "D", c.low))}

    def passed(self, seat: int) -> None:
        if self.layout == "trains":
            self.opened.add(seat)

    def close(self, tile: Tile, part: str) -> None:
        for ray in self.rays.values():
            if ray.end is not None and ray.end[:2] == (tile, part):
                ray.end = None


SHAPES = [PRESETS["cross"], PRESETS["telephone"], PRESETS["trains"]]
VARIANTS = [
    *SHAPES,
    Rules.from_dict({"base": "cross", "cross_quota": 2, "double_closes_ray": True}),
    Rules.from_dict({"base": "telephone", "double_closes_ray": True}),
    Rules.from_dict({"base": "trains", "double_closes_ray": True}),
    Rules.from_dict({"base": "cross", "drawing": "never"}),
]


def _expected_plays(model: SimpleShape, state: HandState) -> set[tuple[Tile, Tile | None, str]]:
    seat = state.turn
    held = list(tiles_in(state.playable_mask(seat) | state.hands[seat]))
    if not state.line.tiles:
        held = [x for x in held if state.must_lead in (None, x)]
        return {(x, None, "") for x in held if x.is_double or model.layout != "trains"}
    return {(x, end[0], end[1]) for end in model.reach(seat) for x in held if x.has(end[2])}


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_legal_place_after_every_action_agrees_with_a_simple_model(
    rules: Rules, players: int
) -> None:
    rng = random.Random(f"{rules.name}-{players}")
    for _ in range(25):
        hands, boneyard = deal(rules, players, rng)
        opener = rng.randrange(players)
        if rules.layout is Layout.TRAINS and not any(x.is_double for x in hands[opener]):
            continue
        state = HandState(rules, hands, boneyard, opener)
        model = SimpleShape(rules.layout.value, players, rules.cross_quota)
        while state.result is None:
            expected = _expected_plays(model, state)
            plays = state.legal_plays()
            got = {
                (p.tile, p.place.tile if p.place else None, p.place.side.value if p.place else "")
                for p in plays
            }
            assert got == expected, describe(state.line)
            assert len(got) == len(plays)  # each place once
            actions = state.legal_actions()
            action = rng.choice(actions)
            seat = state.turn
            state.apply(seat, action)
            if isinstance(action, Play):
                if action.place is None:
                    model.lead(action.tile)
                else:
                    model.play(seat, action.tile, action.place.tile, action.place.side.value)
            elif isinstance(action, Pass):
                model.passed(seat)
            for note in state.notes:
                if note.kind == "closed" and note.place is not None:
                    model.close(note.place.tile, note.place.side.value)


def test_a_record_of_a_trains_hand_names_every_train_and_replays() -> None:
    state = trains_example()
    from p2p_dominoes.engine import record_of

    data = record_of(state, (0, 0)).to_dict()
    plays = [a for a in data["actions"] if "play" in a]
    assert plays[1] == {"seat": 1, "play": "4|6", "at": "6|6", "train": 1}
    assert plays[3] == {"seat": 1, "play": "3|4", "at": "4|6", "side": "low", "train": 1}
    again = replay(parse_record(json.loads(json.dumps(data))))
    assert describe(again.state.line) == describe(state.line)
