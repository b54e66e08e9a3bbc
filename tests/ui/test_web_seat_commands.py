"""The page's seat commands: a joiner's seat (2–4 or any) and the host's swap, checked first.

A bad seat or swap gets the page one plain line, and nothing reaches the lobby; a good one is
passed on as is (seats 0-based, as the lobby message carries them).
"""

from __future__ import annotations

from typing import Any

import pytest

from p2p_dominoes.net.admission import LobbySeat, LobbyState
from p2p_dominoes.ui.terminal import LobbyAnswer, parse_lobby_answer, render_seats
from p2p_dominoes.ui.web.page_commands import join_target
from tests.ui.test_web_lobby_commands import IDENTITY, Control, send


class SwapControl(Control):
    def swap(self, first: int, second: int) -> bool:
        self.calls.append(("swap", first * 10 + second))
        return first != 3


def test_a_swap_reaches_the_lobby_only_when_well_formed() -> None:
    control = SwapControl()
    bad: list[dict[str, Any]] = [
        {"type": "swap", "seats": [1]},
        {"type": "swap", "seats": [1, 9]},
        {"type": "swap", "seats": ["1", 2]},
        {"type": "swap", "seats": [1, 2], "more": 1},
        {"type": "swap", "seats": True},
    ]
    received = send([*bad, {"type": "swap", "seats": [1, 3]}, {"type": "swap", "seats": [3, 2]}],
                    control)  # fmt: skip
    assert control.calls == [("swap", 13), ("swap", 32)]
    refused = [m["text"] for m in received if m["type"] == "refused"]
    assert refused == ["That answer is not valid."] * len(bad) + ["That request or seat is gone."]


@pytest.mark.parametrize(
    ("seat", "asked"),
    [(None, None), (1, 1), (3, 3), (0, "bad"), (4, "bad"), ("2", "bad"), (True, "bad")],
)
def test_a_join_asks_for_seats_2_to_4_or_any(seat: object, asked: object) -> None:
    command: dict[str, Any] = {"type": "join", "address": "127.0.0.1:4000"}
    if seat is not None:
        command["seat"] = seat
    target = join_target(command)
    if asked == "bad":
        assert target is None
    else:
        assert target is not None and target.seat == asked


def test_the_terminal_host_swaps_seats_and_sees_the_pairs() -> None:
    assert parse_lobby_answer("swap 2 4", []) == LobbyAnswer("swap", 2, 4)
    assert parse_lobby_answer("поменять 3 2", []) == LobbyAnswer("swap", 3, 2)
    assert parse_lobby_answer("swap 2", []) is None
    assert parse_lobby_answer("swap 2 x", []) is None
    fp = IDENTITY.public.fingerprint
    seats = (LobbySeat(0, "Ann", fp, False), LobbySeat(2, "Bob", fp, False))
    state = LobbyState("K", 4, seats, (), pairs=True)
    assert (
        render_seats(state).splitlines()[1]
        == "Pairs: Ann & Bob against seat 2 empty & seat 4 empty"
    )
    assert render_seats(state, "ru").splitlines()[1] == (
        "Пары: Ann и Bob против место 2 свободно и место 4 свободно"
    )
