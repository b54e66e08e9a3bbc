"""The host's lobby as plain state (`net/host_lobby.py`): seats, the seat asked for, the host's
answers, and what the host's person is shown, all without trio, a network or a clock."""

from __future__ import annotations

import ast
import secrets
from collections.abc import Sequence
from pathlib import Path

from p2p_dominoes.engine import PRESETS, Action, SeatView
from p2p_dominoes.net import HostLobby, PeerOptions, Seated
from p2p_dominoes.net.admission import LobbyState, Refusal
from p2p_dominoes.session import Identity
from p2p_dominoes.session.events import Event
from p2p_dominoes.session.table import TableSession

MODULE = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "net" / "host_lobby.py"


class Lines:
    """A UI that keeps what it is told (the lobby says its answers as lines)."""

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.lines: list[str] = []

    def say(self, line: str) -> None:
        self.lines.append(line)

    def seated(self, session: TableSession, names: Sequence[str]) -> None:
        raise AssertionError("the lobby seats nobody at a table")

    def events(self, events: Sequence[Event], names: Sequence[str], seat: int) -> None:
        raise AssertionError("the lobby has no events")

    def waiting(self, name: str, seconds: float) -> None:
        raise AssertionError("the lobby waits for nobody")

    async def choose(
        self, view: SeatView, names: Sequence[str], scores: Sequence[int], target: int
    ) -> Action:
        raise AssertionError("the lobby asks for no action")


class Desk:
    """A host's person: shown each change; answers are given by calling the lobby directly."""

    def __init__(self) -> None:
        self.shown: list[LobbyState] = []

    def lobby(self, state: LobbyState) -> None:
        self.shown.append(state)

    async def attend(self, control: object) -> None:
        raise AssertionError("not used without trio")


def _lobby(
    players: int = 4, rules: str = "draw", desk: Desk | None = None, lang: str = "en"
) -> tuple[HostLobby, Lines]:
    ui = Lines(lang)
    options = PeerOptions("Ann", Identity.generate(), ui, port=0, mdns=False)
    commitment = secrets.token_bytes(32)
    lobby = HostLobby(options, 47800, players, "kitchen", PRESETS[rules], desk, commitment)
    return lobby, ui


def _joiner(name: str, place: int, observed: str = "192.0.2.7") -> Seated:
    key = Identity.generate().public
    return Seated(name, key, observed, 47801, "192.0.2.1", None, secrets.token_bytes(32), place)


def test_the_host_sits_at_seat_one_and_the_seat_asked_for_is_checked() -> None:
    lobby, _ = _lobby(players=3)
    assert [(s.name, s.place) for s in lobby.seated] == [("Ann", 0)]
    assert lobby.place_for(None) == 1
    assert lobby.place_for(2) == 2
    assert lobby.place_for(0) == Refusal("seat", "seat 1 is the host's")
    no_seat = lobby.place_for(3)
    assert isinstance(no_seat, Refusal) and no_seat.reason.startswith("there is no seat 4")
    lobby.seat(_joiner("Bob", 2))
    assert lobby.place_for(2) == Refusal("seat", "seat 3 is taken")
    assert lobby.place_for(None) == 1


def test_a_person_who_asks_for_a_bots_seat_gets_it_and_the_bot_moves() -> None:
    lobby, _ = _lobby(players=3)
    bot = _joiner("bot-1", 1, observed="127.0.0.1")
    lobby.admission.trust(bot.key)
    lobby.bot_numbers[bot.key] = 0
    lobby.seat(bot)
    assert lobby.place_for(1) == 1  # a bot's seat is free for a person
    lobby.seat(_joiner("Bob", 1))
    assert [(s.name, s.place) for s in lobby.seated] == [("Ann", 0), ("Bob", 1), ("bot-1", 2)]


def test_removing_a_seat_closes_the_gap_unless_partners_sit_opposite() -> None:
    plain, plain_ui = _lobby(players=4)
    partners, _ = _lobby(players=4, rules="kozel")
    for lobby in (plain, partners):
        for place, name in ((1, "Bob"), (2, "Cleo"), (3, "Dan")):
            lobby.seat(_joiner(name, place))
    assert plain.remove(1) and partners.remove(1)
    assert [(s.name, s.place) for s in plain.seated] == [("Ann", 0), ("Cleo", 1), ("Dan", 2)]
    assert [(s.name, s.place) for s in partners.seated] == [("Ann", 0), ("Cleo", 2), ("Dan", 3)]
    assert plain_ui.lines[-1] == "Removed Bob from seat 2."
    assert not plain.remove(0)  # the host's own seat is never taken back
    plain.started = True
    assert not plain.remove(1)  # nor any once the game has begun


def test_a_swap_moves_both_seats_and_is_counted_and_said_in_the_players_language() -> None:
    lobby, ui = _lobby(players=4, rules="kozel", lang="ru")
    lobby.seat(_joiner("Bob", 1))
    lobby.seat(_joiner("Cleo", 2))
    assert lobby.swap(1, 3)
    assert [(s.name, s.place) for s in lobby.seated] == [("Ann", 0), ("Cleo", 2), ("Bob", 3)]
    assert lobby.swaps == 1
    assert ui.lines[-1] == "Места 2 и 4 поменяны."
    assert not lobby.swap(0, 1)  # not the host's seat
    assert not lobby.swap(1, 1)
    assert lobby.swaps == 1


def test_the_seat_list_sends_bots_beside_the_host_through_the_hosts_address() -> None:
    lobby, _ = _lobby(players=3)
    bob = _joiner("Bob", 1, observed="192.0.2.7")
    bob.connection = object()  # type: ignore[assignment]  # only "is there one" is read here
    bot = _joiner("bot-1", 2, observed="127.0.0.1")
    bot.connection = object()  # type: ignore[assignment]
    lobby.seat(bob)
    lobby.seat(bot)
    seats = lobby.seats_for(bob)
    assert [(s.name, s.address, s.port) for s in seats.seats] == [
        ("Ann", "192.0.2.1", 47800),  # the host: the address Bob used to reach it
        ("Bob", "192.0.2.7", 47801),
        ("bot-1", "192.0.2.1", 47801),  # a loopback peer: reached through the host's address
    ]
    assert seats.places is None  # no gap: places stay off the wire
    lobby.remove(1)
    assert lobby.seats_for(bot).places is None  # the gap was closed


def test_the_hosts_person_is_shown_each_change_and_answers_requests() -> None:
    desk = Desk()
    lobby, ui = _lobby(players=2, desk=desk)
    key = Identity.generate().public
    request = lobby.admission.request(key, "Bob", "192.0.2.7:5000", seats_free=1, seated=False)
    assert not isinstance(request, Refusal)
    lobby.touch()
    assert desk.shown[-1].pending and desk.shown[-1].table == "kitchen"
    assert lobby.refuse(request.number)
    assert ui.lines[-1].startswith("Refused Bob")
    assert not lobby.refuse(request.number)  # answered already
    assert desk.shown[-1].pending == ()
    shown = len(desk.shown)
    lobby.started = True
    lobby.touch()
    assert len(desk.shown) == shown  # once the game has begun the lobby is not shown


def test_the_lobby_state_imports_no_trio_and_no_connection_at_run_time() -> None:
    """The host's lobby state is plain: trio and sockets stay in `lobby_member.LiveLobby`."""
    tree = ast.parse(MODULE.read_text("utf-8"))
    imported: set[str] = set()
    for node in tree.body:  # top level only: the connection type is for annotations
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    io = {"trio", "socket", "subprocess", "p2p_dominoes.net.connection", "p2p_dominoes.net.runtime"}
    assert imported & io == set()
    assert "p2p_dominoes.net.admission" in imported  # what the check reads is real
