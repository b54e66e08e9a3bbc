"""A dropped connection mid-hand is dialled again and the match finishes (two peers, loopback)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
import trio

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import Action, SeatView, preset
from p2p_dominoes.net import (
    Inbox,
    PeerOptions,
    Target,
    host_table,
    hosting,
    join_table,
    joining,
    mesh,
    serve_link,
)
from p2p_dominoes.net.connection import Connection
from p2p_dominoes.session import Identity, TableSession
from p2p_dominoes.session.events import Event, TilesDealt


class QuietUI:
    """Collects lines; tells the test when the joiner holds its tiles."""

    def __init__(self, dealt: trio.Event | None = None) -> None:
        self.lines: list[str] = []
        self.dealt = dealt

    def say(self, line: str) -> None:
        self.lines.append(line)

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        pass

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        if self.dealt is not None and any(isinstance(e, TilesDealt) for e in events):
            self.dealt.set()

    def waiting(self, name: str, seconds: float) -> None:
        pass

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        raise AssertionError("bots play both seats")


async def test_the_joiner_dials_the_host_again_after_the_link_drops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    links: list[Connection] = []
    serve = serve_link

    async def remembering(inbox: Inbox, seat: int, connection: Connection) -> None:
        links.append(connection)
        await serve(inbox, seat, connection)

    for module in (hosting, mesh):  # the host's lobby connections, and the joiner's links
        monkeypatch.setattr(module, "serve_link", remembering)
    ports: list[int] = []
    listen = joining.open_listener

    async def noting_port(**kwargs: object) -> object:
        listener = await listen(**kwargs)  # type: ignore[arg-type]
        ports.append(listener.port)
        return listener

    for module in (hosting, joining):
        monkeypatch.setattr(module, "open_listener", noting_port)
    dealt = trio.Event()
    rules = dataclasses.replace(preset("draw"), stall_timeout_s=20)
    host_ui, join_ui = QuietUI(), QuietUI(dealt)
    host = PeerOptions(
        "host",
        Identity.generate(),
        host_ui,
        interface="127.0.0.1",
        port=0,
        bot=random_bot,
        mdns=False,
    )
    join = PeerOptions(
        "join",
        Identity.generate(),
        join_ui,
        interface="127.0.0.1",
        port=0,
        bot=random_bot,
        mdns=False,
    )
    statuses: dict[str, int] = {}

    async def run_host() -> None:
        statuses["host"] = await host_table(
            host, table_name="t", rules=rules, players=2, bots=0, bot_strategy="random", hands=2
        )

    async def run_join() -> None:
        while not ports:
            await trio.sleep(0.02)
        target = Target(("127.0.0.1",), ports[0], host.identity.public)
        statuses["join"] = await join_table(join, target)

    async def cut_the_link() -> None:
        await dealt.wait()
        joiner_to_host = next(c for c in links if c.initiator)
        await joiner_to_host.aclose("simulated network drop")

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            nursery.start_soon(run_join)
            nursery.start_soon(cut_the_link)
    assert statuses == {"host": 0, "join": 0}
    assert any("Lost the connection to host" in line for line in join_ui.lines)
    finals = [line for ui in (host_ui, join_ui) for line in ui.lines if "final transcript" in line]
    assert len(finals) == 2 and finals[0] == finals[1]
    assert sum(1 for c in links if c.initiator) >= 2  # the joiner dialled the host again
