"""The host says which seats its own bots hold, and at what level, so a joiner's page can show
"Bot (hard) is thinking" too: an advisory element of the lobby's seat list (PROTOCOL.md §13.2),
over real sockets on loopback, and strictly decoded."""

from __future__ import annotations

from collections.abc import Callable

import msgpack
import pytest
import trio

from p2p_dominoes.engine import DRAW_RULES, preset
from p2p_dominoes.net.lobby import LobbyError, SeatAddress, Seats, decode_lobby, encode_lobby
from p2p_dominoes.net.presence import Presence
from p2p_dominoes.net.tables import Target, host_table, join_table
from p2p_dominoes.session import Identity
from tests.net.test_lobby_host import LinesUI, _options, ports  # noqa: F401


class _Watch:
    """A joiner's presence watcher that keeps the bot levels it was shown."""

    def __init__(self) -> None:
        self.read: Callable[[], Presence] | None = None
        self.shown: list[dict[int, str]] = []

    def watch(self, read: Callable[[], Presence]) -> None:
        self.read = read

    def tick(self) -> None:
        if self.read is not None:
            seats = self.read().seats
            bots = {s.seat: s.bot for s in seats if s.bot is not None}
            mine = next(s.seat for s in seats if s.state == "me")
            self.shown.append({**bots, mine: "me"})


async def test_a_joiners_presence_names_the_hosts_bots_by_level(
    ports: list[int],  # noqa: F811
) -> None:
    host = _options("host", LinesUI())
    bob_ui = LinesUI()
    bob = _options("bob", bob_ui)
    watch = _Watch()
    bob.presence = watch
    statuses: dict[str, int] = {}

    async def run_host() -> None:
        statuses["host"] = await host_table(
            host, table_name="t", rules=DRAW_RULES, players=3, bots=1, bot_strategy="easy",
            hands=1,
        )  # fmt: skip

    async def run_bob() -> None:
        target = Target(("127.0.0.1",), ports[0], host.identity.public)
        statuses["bob"] = await join_table(bob, target)

    with trio.fail_after(120):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            while not ports:
                await trio.sleep(0.02)
            nursery.start_soon(run_bob)
    assert statuses == {"host": 0, "bob": 0}
    assert watch.shown, "bob's presence was never read"
    # Seats 2 and 3 are bob's and the bot's, in the order they came; the host's is a person's.
    first = watch.shown[0]
    assert sorted(first.values()) == ["easy", "me"] and 0 not in first, first
    assert all(shown == first for shown in watch.shown)


def _seat(name: str) -> SeatAddress:
    return SeatAddress(name, Identity.generate().public, "127.0.0.1", 4000)


def test_a_seat_list_with_bots_round_trips_and_older_lists_read_as_before() -> None:
    seats = (_seat("ann"), _seat("bot-1"))
    with_bots = Seats("t", preset("kozel"), 4, seats, None, None, (None, "hard"))
    assert decode_lobby(encode_lobby(with_bots)[1:]) == with_bots
    gap = Seats("t", preset("kozel"), 4, seats, None, (0, 2), (None, "partner"))
    assert decode_lobby(encode_lobby(gap)[1:]) == gap
    older = Seats("t", preset("kozel"), 4, seats, None)
    assert decode_lobby(encode_lobby(older)[1:]).bots is None  # type: ignore[union-attr]
    assert len(encode_lobby(older)) < len(encode_lobby(with_bots))


@pytest.mark.parametrize(
    "bots",
    [["hard"], [None, "Hard"], [None, "x" * 17], [None, 3], [None, "hard\n"], "hard"],
    ids=["too-few", "upper-case", "too-long", "a-number", "control", "not-a-list"],
)
def test_a_seat_list_with_bad_bots_is_malformed(bots: object) -> None:
    seats = (_seat("ann"), _seat("bot-1"))
    good = encode_lobby(Seats("t", preset("kozel"), 4, seats, None, None, (None, "hard")))
    body = msgpack.unpackb(good[1:], raw=False)
    body[-1] = bots
    with pytest.raises(LobbyError, match="bots"):
        decode_lobby(msgpack.packb(body, use_bin_type=True))
