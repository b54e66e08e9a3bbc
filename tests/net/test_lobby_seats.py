"""Picking a seat and the host's swap, over real sockets on loopback (a Kozel table).

At a Kozel table the seats fix the pairs (1+3 against 2+4), so a joiner may ask for a seat, a
seat that is taken or does not exist is refused with one clear line, the host can swap two seats
before the start, and the genesis seats everyone where the last seat list showed them.
"""

from __future__ import annotations

import re
import secrets

import pytest
import trio

from p2p_dominoes.engine import preset
from p2p_dominoes.net import PeerFailure, Target, connect, host_table, join_table
from p2p_dominoes.net.lobby import Join, LobbyError, Refuse, Seats, decode_lobby, encode_lobby
from p2p_dominoes.session import Identity
from tests.net.test_lobby_host import LinesUI, ScriptedDesk, _options, ports  # noqa: F401


async def _ask_for_seat(port: int, seat: int) -> Refuse:
    """A stranger asks for `seat` (0-based) with a raw join and returns the host's answer."""
    async with connect("127.0.0.1", port, Identity.generate(), expect=None) as host:
        join = Join("eve", 9, "127.0.0.1", secrets.token_bytes(32), seat)
        await host.send(encode_lobby(join))
        while True:
            message = decode_lobby((await host.receive()).payload[1:])  # type: ignore[union-attr]
            if isinstance(message, Refuse):
                return message


async def test_joiners_pick_seats_the_host_swaps_and_the_genesis_fixes_the_pairs(
    ports: list[int],  # noqa: F811
) -> None:
    host_ui, desk = LinesUI(), ScriptedDesk()
    host = _options("host", host_ui)
    uis = {name: LinesUI() for name in ("bob", "carol", "dave")}
    joiners = {name: _options(name, ui) for name, ui in uis.items()}
    statuses: dict[str, int] = {}
    failures: dict[str, str] = {}

    async def run_host() -> None:
        statuses["host"] = await host_table(
            host, table_name="k", rules=preset("kozel"), players=4, bots=0,
            bot_strategy="partner", hands=1, desk=desk,
        )  # fmt: skip

    async def run_join(name: str, seat: int | None) -> None:
        target = Target(("127.0.0.1",), ports[0], host.identity.public, seat=seat)
        try:
            statuses[name] = await join_table(joiners[name], target)
        except* PeerFailure as group:
            failures[name] = str(group.exceptions[0])

    def places(state: object) -> list[tuple[int, str]]:
        return [(s.seat, s.name) for s in state.seats]  # type: ignore[attr-defined]

    with trio.fail_after(240):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            while not ports:
                await trio.sleep(0.02)
            nursery.start_soon(run_join, "bob", 2)  # seat 3: the host's partner
            await desk.until(lambda s: places(s) == [(0, "host"), (2, "bob")])
            assert desk.states[-1].pairs
            await uis["bob"].heard("Pairs: host & bob against seat 2 empty & seat 4 empty")

            nursery.start_soon(run_join, "dave", 2)  # bob's seat: refused, one line
            while "dave" not in failures:
                await trio.sleep(0.05)
            for seat in (7, 0, -1):  # no such seat, the host's, nonsense
                refusal = await _ask_for_seat(ports[0], seat)
                assert refusal.code == "seat", refusal

            nursery.start_soon(run_join, "carol", None)  # any: the lowest free seat (2)
            await desk.until(lambda s: places(s) == [(0, "host"), (1, "carol"), (2, "bob")])
            assert desk.control is not None
            assert not desk.control.swap(0, 1)  # the host's own seat stays
            assert not desk.control.swap(1, 9)
            assert desk.control.swap(1, 3)  # carol to seat 4 (an empty seat)
            await desk.until(lambda s: places(s) == [(0, "host"), (2, "bob"), (3, "carol")])
            await uis["bob"].heard("Pairs: host & bob against seat 2 empty & carol")
            await uis["carol"].heard("Pairs: host & bob against seat 2 empty & carol")

            joiners["dave"] = _options("dave", uis["dave"])  # a fresh peer, same name
            nursery.start_soon(run_join, "dave", None)

    assert set(failures) == {"dave"}, failures
    # The host's own words are quoted and said to be its peer's (it has no seat list yet).
    assert re.fullmatch(
        r"no seat \[seat\]: the seat you asked for is not free at this table "
        r"\(the host's peer \([A-Z2-7]{4}-[A-Z2-7]{4}\) says: “seat 3 is taken”\)",
        failures["dave"],
    ), failures
    assert statuses == {"host": 0, "bob": 0, "carol": 0, "dave": 0}, (statuses, failures)
    order = "Seated at seat {} of 4: host, dave, bob, carol"
    for seat, ui in ((1, host_ui), (2, uis["dave"]), (3, uis["bob"]), (4, uis["carol"])):
        assert any(order.format(seat) in line for line in ui.lines), ui.lines
    assert any("Seats 2 and 4 swapped." in line for line in host_ui.lines)


def test_a_seat_list_with_places_round_trips_and_bad_places_are_refused() -> None:
    join = Join("ann", 4000, "10.0.0.1", bytes(32), 3)
    assert decode_lobby(encode_lobby(join)[1:]) == join
    older = Join("ann", 4000, "10.0.0.1", bytes(32))  # no seat: any, as older joiners send it
    assert len(encode_lobby(older)) < len(encode_lobby(join))
    assert decode_lobby(encode_lobby(older)[1:]).seat is None  # type: ignore[union-attr]
    seats = Seats("t", preset("kozel"), 4, (), None, ())
    assert decode_lobby(encode_lobby(seats)[1:]) == seats


@pytest.mark.parametrize(
    "body",
    [
        b"\x96\xa4join\xa3ann\xcd\x0f\xa0\xa810.0.0.1\xc4\x20" + bytes(32) + b"\xa1x",
    ],
)
def test_a_join_whose_seat_is_not_a_number_is_malformed(body: bytes) -> None:
    with pytest.raises(LobbyError, match="seat"):
        decode_lobby(body)
