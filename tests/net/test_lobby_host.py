"""The host's lobby over real sockets on loopback (peers in one trio run, bots at every seat).

A scripted desk stands for the host's person. It sees each request, refuses the squatters,
seats the others, and takes a seat back; the joiners see what the protocol promises: a `busy`
refusal is retried with backoff, a removed joiner is told, the seat list follows for everyone,
a removed key asking again is refused without the host being asked, unanswered requests and
silent connections do not stay.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Sequence

import pytest
import trio

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import Action, SeatView, preset
from p2p_dominoes.net import (
    ConnectionClosed,
    Listener,
    PeerFailure,
    PeerOptions,
    Target,
    connect,
    host_lobby,
    host_table,
    hosting,
    join_table,
    joining,
    open_listener,
    resume,
)
from p2p_dominoes.net.admission import JOIN_DEADLINE, Admission, LobbyControl, LobbyState
from p2p_dominoes.net.lobby import Join, Refuse, decode_lobby, encode_lobby
from p2p_dominoes.session import Identity, TableSession
from p2p_dominoes.session.events import Event


class LinesUI:
    """Collects what a peer says; `heard(text)` waits until a line contains `text`."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._changed = trio.Event()

    def say(self, line: str) -> None:
        self.lines.append(line)
        self._changed.set()
        self._changed = trio.Event()

    async def heard(self, text: str) -> str:
        while True:
            for line in self.lines:
                if text in line:
                    return line
            await self._changed.wait()

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        pass

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        pass

    def waiting(self, name: str, seconds: float) -> None:
        pass

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        raise AssertionError("bots play every seat")


class ScriptedDesk:
    """The host's person: approves everyone except squatters, whom it refuses once `refuse_now`."""

    def __init__(self) -> None:
        self.states: list[LobbyState] = []
        self.asked: list[str] = []
        self.control: LobbyControl | None = None
        self.refuse_now = trio.Event()
        self._changed = trio.Event()

    def lobby(self, state: LobbyState) -> None:
        self.states.append(state)
        for request in state.pending:
            if request.name not in self.asked:
                self.asked.append(request.name)
        self._changed.set()
        self._changed = trio.Event()

    async def attend(self, control: LobbyControl) -> None:
        self.control = control
        while True:
            state = self.states[-1] if self.states else None
            for request in state.pending if state else ():
                if not request.name.startswith("squat"):
                    control.approve(request.number)
                elif self.refuse_now.is_set():
                    control.refuse(request.number)
            changed = self._changed
            with trio.move_on_after(0.2):
                await changed.wait()

    async def until(self, check: object) -> LobbyState:
        while True:
            if self.states and callable(check) and check(self.states[-1]):
                return self.states[-1]
            await self._changed.wait()


def _options(name: str, ui: LinesUI) -> PeerOptions:
    return PeerOptions(
        name, Identity.generate(), ui, interface="127.0.0.1", port=0, bot=random_bot, mdns=False
    )


@pytest.fixture
def ports(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ports the peers listen on, in the order they opened (the host's first)."""
    opened: list[int] = []
    listen = hosting.open_listener

    async def noting_port(**kwargs: object) -> object:
        listener = await listen(**kwargs)  # type: ignore[arg-type]
        opened.append(listener.port)
        return listener

    for module in (hosting, joining, resume):  # every place that opens a listener
        monkeypatch.setattr(module, "open_listener", noting_port)
    return opened


async def _squat(port: int, name: str, refusals: list[str]) -> None:
    """A stranger asks for a seat and holds on until it is refused."""
    async with connect("127.0.0.1", port, Identity.generate(), expect=None) as host:
        await host.send(encode_lobby(Join(name, 9, "127.0.0.1", secrets.token_bytes(32))))
        while True:
            message = await host.receive()
            refusal = decode_lobby(getattr(message, "payload", b"\x02")[1:])
            if isinstance(refusal, Refuse):
                refusals.append(refusal.code)
                return


async def test_the_host_refuses_squatters_seats_joiners_and_removes_one(
    ports: list[int],
) -> None:
    host_ui, desk = LinesUI(), ScriptedDesk()
    host = _options("host", host_ui)
    uis = {name: LinesUI() for name in ("bob", "mallory", "carol", "dave")}
    joiners = {name: _options(name, ui) for name, ui in uis.items()}
    statuses: dict[str, int] = {}
    failures: dict[str, str] = {}
    refusals: list[str] = []
    rules = preset("draw")

    async def run_host() -> None:
        statuses["host"] = await host_table(
            host, table_name="t", rules=rules, players=4, bots=0, bot_strategy="random",
            hands=1, desk=desk,
        )  # fmt: skip

    async def run_join(name: str, options: PeerOptions | None = None) -> None:
        target = Target(("127.0.0.1",), ports[0], host.identity.public)
        try:
            statuses[name] = await join_table(options or joiners[name], target)
        except* PeerFailure as group:
            failures[name] = str(group.exceptions[0])

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            while not ports:
                await trio.sleep(0.02)
            # Two squatters fill this source's share of the pending requests.
            for n in range(2):
                nursery.start_soon(_squat, ports[0], f"squat-{n}", refusals)
            await desk.until(lambda s: len(s.pending) == 2)
            nursery.start_soon(run_join, "bob")
            await uis["bob"].heard("The host is busy")
            desk.refuse_now.set()  # the squatters are refused: bob's next try is asked
            await desk.until(lambda s: [x.name for x in s.seats] == ["host", "bob"])
            nursery.start_soon(run_join, "mallory")
            await desk.until(lambda s: len(s.seats) == 3)
            await uis["bob"].heard("3 of 4 seats")

            assert desk.control is not None and desk.control.remove(2)  # mallory's seat
            while "mallory" not in failures:
                await trio.sleep(0.05)
            await uis["bob"].heard("2 of 4 seats")
            asked_before = list(desk.asked)
            nursery.start_soon(run_join, "mallory-again", joiners["mallory"])  # same key
            while "mallory-again" not in failures:
                await trio.sleep(0.05)
            assert desk.asked == asked_before  # the host was not bothered

            nursery.start_soon(run_join, "carol")
            nursery.start_soon(run_join, "dave")

    assert failures["mallory"] == "no seat [removed]: the host removed you from the table"
    assert failures["mallory-again"] == "no seat [refused]: the host refused you a seat"
    assert statuses == {"host": 0, "bob": 0, "carol": 0, "dave": 0}, (statuses, failures)
    assert sorted(refusals) == ["refused", "refused"]
    assert sorted(desk.asked[:2]) == ["squat-0", "squat-1"] and desk.asked.count("bob") == 1
    assert any("Removed mallory from seat 3." in line for line in host_ui.lines)
    assert any("asking again in" in line for line in uis["bob"].lines)


async def test_an_unanswered_request_is_refused_and_a_silent_connection_is_dropped(
    ports: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(host_lobby, "Admission", functools.partial(Admission, answer_timeout=1.0))
    desk = ScriptedDesk()

    class AwayDesk(ScriptedDesk):
        async def attend(self, control: LobbyControl) -> None:
            await trio.sleep_forever()  # the host's person is away

    away = AwayDesk()
    host = _options("host", LinesUI())
    joiner = _options("late", LinesUI())
    failures: list[str] = []
    dropped_after: list[float] = []

    async def run_host() -> None:
        await host_table(
            host, table_name="t", rules=preset("draw"), players=2, bots=0,
            bot_strategy="random", hands=1, desk=away,
        )  # fmt: skip

    async def silent() -> None:
        started = trio.current_time()
        async with connect("127.0.0.1", ports[0], Identity.generate(), expect=None) as conn:
            with pytest.raises(ConnectionClosed):
                while True:
                    await conn.receive()
        dropped_after.append(trio.current_time() - started)

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            while not ports:
                await trio.sleep(0.02)
            await silent()
            target = Target(("127.0.0.1",), ports[0], host.identity.public)
            try:
                await join_table(joiner, target)
            except* PeerFailure as group:
                failures.append(str(group.exceptions[0]))
            nursery.cancel_scope.cancel()
    assert failures == ["no seat [unanswered]: the host did not answer"]
    assert away.asked == ["late"]
    assert JOIN_DEADLINE <= dropped_after[0] < joining.SEAT_WAIT, dropped_after
    assert desk.states == []


async def test_a_finished_table_frees_its_port_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """When `host` and `join` return, their listeners are closed: a rematch from the page (the
    same process) opens the table again on the same port, and the joiner dials that port."""
    opened: list[Listener] = []
    listen = hosting.open_listener

    async def keeping(**kwargs: object) -> Listener:
        listener = await listen(**kwargs)  # type: ignore[arg-type]
        opened.append(listener)  # held here: only an explicit close frees the port
        return listener

    for module in (hosting, joining, resume):  # every place that opens a listener
        monkeypatch.setattr(module, "open_listener", keeping)
    host = _options("host", LinesUI())
    statuses: dict[str, int] = {}

    async def run_host() -> None:
        statuses["host"] = await host_table(
            host, table_name="t", rules=preset("block"), players=2, bots=0,
            bot_strategy="random", hands=1, desk=None,
        )  # fmt: skip

    with trio.fail_after(60):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            while not opened:
                await trio.sleep(0.02)
            target = Target(("127.0.0.1",), opened[0].port, host.identity.public)
            statuses["bob"] = await join_table(_options("bob", LinesUI()), target)
    assert statuses == {"host": 0, "bob": 0}
    assert len(opened) == 2
    for listener in opened:
        again = await open_listener(interface="127.0.0.1", port=listener.port, fallback=False)
        await again.aclose()
