"""The host's own bots sit in the order of their numbers, whatever order they arrive in."""

import secrets

from p2p_dominoes.net.host_lobby import Seated, bots_in_order
from p2p_dominoes.session import Identity


def _seat(name: str) -> Seated:
    key = Identity.generate().public
    return Seated(name, key, "127.0.0.1", 1, "", None, secrets.token_bytes(32))


def test_bots_that_arrive_out_of_order_are_seated_by_number_around_a_person() -> None:
    host, bob = _seat("Ann"), _seat("Bob")
    bots = [_seat(f"bot-{n}") for n in (1, 2, 3)]
    numbers = {bot.key: n for n, bot in enumerate(bots)}
    seated = [host, bots[2], bob, bots[0], bots[1]]  # as they arrived
    bots_in_order(seated, numbers)
    assert [s.name for s in seated] == ["Ann", "bot-1", "Bob", "bot-2", "bot-3"]


def test_a_lobby_without_bots_is_left_as_it_is() -> None:
    seated = [_seat("Ann"), _seat("Cleo"), _seat("Bob")]
    names = [s.name for s in seated]
    bots_in_order(seated, {})
    assert [s.name for s in seated] == names
