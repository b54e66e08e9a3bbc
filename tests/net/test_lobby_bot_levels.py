"""The host says which seats its own bots hold, and at what level, so a joiner's page can show
"Bot (hard) is thinking" too: an advisory lobby message of its own after each seat list
(PROTOCOL.md §13.2), over real sockets on loopback, and strictly decoded."""

from __future__ import annotations

from collections.abc import Callable

import msgpack
import pytest
import trio

from p2p_dominoes.engine import DRAW_RULES, preset
from p2p_dominoes.net import Target, host_table, join_table, lobby_message
from p2p_dominoes.net.framing import Data
from p2p_dominoes.net.host_lobby import levels_by_seat
from p2p_dominoes.net.lobby import (
    CHANNEL_LOBBY,
    BotLevels,
    LobbyError,
    SeatAddress,
    Seats,
    decode_lobby,
    encode_lobby,
)
from p2p_dominoes.net.presence import Presence
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


def _key() -> bytes:
    return Identity.generate().public.raw


def test_the_bot_levels_round_trip_and_the_seat_list_stays_as_older_joiners_read_it() -> None:
    said = BotLevels(((Identity.generate().public, "hard"), (Identity.generate().public, "easy")))
    assert decode_lobby(encode_lobby(said)[1:]) == said
    seats = Seats("t", preset("kozel"), 4, (), None)
    assert len(msgpack.unpackb(encode_lobby(seats)[1:])) == 6  # kind + 5: as before bots
    # A reader that does not know a kind drops the message (as an older joiner drops "bots").
    unknown = Data(bytes([CHANNEL_LOBBY]) + msgpack.packb(["bots-v9", []]))
    assert lobby_message(unknown) is None


@pytest.mark.parametrize(
    "levels",
    [
        "hard",
        [[_key(), "hard"]] * 4,
        [[_key()]],
        [["hard", _key()]],
        [[_key(), "Hard"]],
        [[_key(), "x" * 17]],
        [[_key(), "hard\n"]],
        [[_key(), "9lives"]],
        [[b"\x00" * 31, "hard"]],
        [[b"\x00" * 32, "hard"], [b"\x00" * 32, "easy"]],
    ],
    ids=[
        "not-a-list", "too-many", "no-level", "swapped", "upper-case", "too-long", "control",
        "digit-first", "short-key", "same-key-twice",
    ],
)  # fmt: skip
def test_a_bad_bot_list_is_malformed(levels: object) -> None:
    with pytest.raises(LobbyError, match="bots"):
        decode_lobby(msgpack.packb(["bots", levels], use_bin_type=True))


def test_a_joiner_never_labels_the_hosts_seat_or_its_own() -> None:
    seats = [SeatAddress(n, Identity.generate().public, "127.0.0.1", 4000) for n in "abc"]
    said = {s.key: "hard" for s in seats}  # a lying host: everyone is a bot
    assert levels_by_seat(seats, said, skip=(0, 1)) == {2: "hard"}
