"""A bot peer thinks in a worker thread: the table's event loop runs on while it decides."""

from __future__ import annotations

import random
import threading
from types import SimpleNamespace
from typing import Any

import trio

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import DRAW_RULES, HandView, SeatView
from p2p_dominoes.engine.actions import Action
from p2p_dominoes.net.runtime import _choose
from tests.engine.dealing import deal


async def test_the_loop_runs_while_the_bot_thinks_and_the_bot_sees_a_detached_view() -> None:
    state = deal(DRAW_RULES, ["6|6 6|5", "1|1"])
    thinking = threading.Event()
    released = threading.Event()
    seen: list[SeatView] = []
    by_the_loop: list[bool] = []

    def slow_bot(view: SeatView, rng: random.Random) -> Action:
        seen.append(view)
        thinking.set()
        # Only the event loop sets `released`: were the bot on the loop, this would time out.
        by_the_loop.append(released.wait(20))
        return greedy_bot(view, rng)

    send, receive = trio.open_memory_channel[Any](1)
    run: Any = SimpleNamespace(
        session=SimpleNamespace(view=lambda: HandView(state, 0)),
        options=SimpleNamespace(bot=slow_bot),
        inbox=SimpleNamespace(send=send),
    )
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_choose, run, (1, 0))
        while not thinking.is_set():
            await trio.sleep(0.001)
        released.set()
        chosen = await receive.receive()
    assert by_the_loop == [True]
    assert chosen.token == (1, 0) and str(chosen.action) == "play [6|6]"
    assert not isinstance(seen[0], HandView)  # a snapshot, not the live view
