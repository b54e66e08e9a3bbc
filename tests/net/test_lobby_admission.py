"""The host's admission state machine: asking, answers, cooldowns, pending caps and deadlines.

A fake clock drives every deadline, so nothing here waits.
"""

from __future__ import annotations

import pytest

from p2p_dominoes.net import busy_waits
from p2p_dominoes.net.admission import (
    ANSWER_TIMEOUT,
    MAX_PENDING,
    MAX_PENDING_PER_SOURCE,
    REFUSAL_COOLDOWN,
    SOURCE_REFUSALS,
    WRONG_CODES,
    Admission,
    Refusal,
    Request,
    SeatNow,
)
from p2p_dominoes.net.lobby import REFUSAL_CODES, Refuse, decode_lobby, encode_lobby
from p2p_dominoes.session import Identity, PublicIdentity


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def key() -> PublicIdentity:
    return Identity.generate().public


def asking(clock: Clock, **limits: int) -> Admission:
    return Admission(ask=True, clock=clock, **limits)  # type: ignore[arg-type]


def ask(admission: Admission, who: PublicIdentity, address: str = "192.0.2.1:5000") -> object:
    return admission.request(who, "Bob", address, seats_free=2, seated=False)


def test_without_a_person_joiners_are_seated_at_once_until_the_table_is_full() -> None:
    admission = Admission(ask=False)
    assert isinstance(admission.request(key(), "Bob", "192.0.2.1:1", seats_free=1, seated=False),
                      SeatNow)  # fmt: skip
    full = admission.request(key(), "Eve", "192.0.2.2:1", seats_free=0, seated=False)
    assert full == Refusal("full", "the table is full")
    assert admission.pending == ()


def test_a_request_waits_for_the_host_who_approves_it() -> None:
    clock = Clock()
    admission = asking(clock)
    bob = key()
    request = ask(admission, bob)
    assert isinstance(request, Request)
    assert request.key == bob and request.source == "192.0.2.1"
    assert request.deadline == clock.now + ANSWER_TIMEOUT
    assert admission.pending == (request,)
    assert admission.verdict(request.number) is None
    assert admission.answer(request.number, True) == request
    assert len(admission.pending) == 0
    assert admission.verdict(request.number) is True
    assert admission.verdict(request.number) is None  # taken once
    assert admission.answer(request.number, False) is None  # already answered


def test_the_name_the_host_sees_is_cleaned() -> None:
    admission = asking(Clock())
    request = admission.request(
        key(), "Bob\x1b]0;pwned\x07\u202e", "192.0.2.1:1", seats_free=1, seated=False
    )
    assert isinstance(request, Request)
    assert request.name == "Bob]0;pwned"


def test_a_refused_key_is_refused_without_asking_until_its_cooldown_ends() -> None:
    clock = Clock()
    admission = asking(clock)
    eve = key()
    first = ask(admission, eve)
    assert isinstance(first, Request)
    admission.answer(first.number, False)
    assert admission.verdict(first.number) is False
    clock.now += REFUSAL_COOLDOWN - 1
    again = ask(admission, eve, "192.0.2.9:1")  # from elsewhere too
    assert again == Refusal("refused", "the host refused you a seat")
    assert admission.pending == ()  # the host was not asked
    clock.now += 2
    assert isinstance(ask(admission, eve), Request)


def test_a_removed_key_cools_down_too() -> None:
    clock = Clock()
    admission = asking(clock)
    bob = key()
    admission.removed(bob)
    refusal = ask(admission, bob)
    assert isinstance(refusal, Refusal) and refusal.code == "refused"
    for _ in range(5):  # removals do not cool down the source
        admission.removed(key())
    assert isinstance(ask(admission, key()), Request)


def test_a_source_whose_keys_the_host_refused_three_times_cools_down() -> None:
    clock = Clock()
    admission = asking(clock)
    for _ in range(3):
        request = ask(admission, key(), "192.0.2.7:1")
        assert isinstance(request, Request)
        admission.answer(request.number, False)
    fresh_key = ask(admission, key(), "192.0.2.7:2")
    assert isinstance(fresh_key, Refusal) and fresh_key.code == "refused"
    assert isinstance(ask(admission, key(), "192.0.2.8:1"), Request)  # another source is asked
    clock.now += REFUSAL_COOLDOWN + 1
    assert isinstance(ask(admission, key(), "192.0.2.7:3"), Request)


def test_an_ipv6_slash_64_is_one_source() -> None:
    admission = asking(Clock())
    for host in ("2001:db8::1", "2001:db8::2"):
        assert isinstance(ask(admission, key(), f"[{host}]:1"), Request)
    crowded = ask(admission, key(), "[2001:db8::ffff:3]:1")
    assert isinstance(crowded, Refusal) and crowded.code == "busy"


def test_pending_requests_are_capped_in_total_and_per_source() -> None:
    admission = asking(Clock())
    for _ in range(MAX_PENDING_PER_SOURCE):
        assert isinstance(ask(admission, key(), "192.0.2.1:1"), Request)
    same_source = ask(admission, key(), "192.0.2.1:2")
    assert isinstance(same_source, Refusal) and same_source.code == "busy"
    for n in range(MAX_PENDING - MAX_PENDING_PER_SOURCE):
        assert isinstance(ask(admission, key(), f"192.0.2.{10 + n}:1"), Request)
    beyond = ask(admission, key(), "192.0.2.99:1")
    assert beyond == Refusal("busy", "other players are waiting for the host's answer")
    assert len(admission.pending) == MAX_PENDING
    # An answer frees a place.
    admission.answer(admission.pending[0].number, False)
    assert isinstance(ask(admission, key(), "192.0.2.99:1"), Request)


def test_a_key_cannot_ask_twice_or_ask_while_seated() -> None:
    admission = asking(Clock())
    bob = key()
    assert isinstance(ask(admission, bob), Request)
    twice = ask(admission, bob, "192.0.2.50:1")
    assert isinstance(twice, Refusal) and twice.code == "seated"
    seated = admission.request(key(), "Ann", "192.0.2.3:1", seats_free=1, seated=True)
    assert isinstance(seated, Refusal) and seated.code == "seated"


def test_an_unanswered_request_expires_and_cools_down_like_a_refused_one() -> None:
    clock = Clock()
    admission = asking(clock)
    bob = key()
    request = ask(admission, bob)
    assert isinstance(request, Request)
    clock.now += ANSWER_TIMEOUT - 1
    assert admission.expire() == []
    clock.now += 1
    assert admission.expire() == [request]
    assert admission.pending == ()
    assert admission.answer(request.number, True) is None  # too late
    again = ask(admission, bob)  # the key cools down, as if refused
    assert isinstance(again, Refusal) and again.code == "refused"
    clock.now += REFUSAL_COOLDOWN + 1
    assert isinstance(ask(admission, bob), Request)  # until the cooldown is over


def test_unanswered_requests_cool_their_source_down_too() -> None:
    clock = Clock()
    admission = asking(clock, max_pending=1, max_pending_per_source=1)
    for _ in range(SOURCE_REFUSALS):
        request = ask(admission, key())
        assert isinstance(request, Request)
        clock.now += ANSWER_TIMEOUT
        assert admission.expire() == [request]
    refused = ask(admission, key())  # a fresh key from the same source: not asked about
    assert isinstance(refused, Refusal) and refused.code == "refused"
    assert isinstance(ask(admission, key(), "192.0.2.9:1"), Request)  # another source is


def test_a_withdrawn_request_frees_its_place() -> None:
    admission = asking(Clock(), max_pending=1)
    request = ask(admission, key())
    assert isinstance(request, Request)
    assert admission.withdraw(request.number) == request
    assert isinstance(ask(admission, key()), Request)


def test_the_hosts_own_bots_are_seated_without_asking() -> None:
    admission = asking(Clock())
    bot = key()
    admission.trust(bot)
    assert admission.trusts(bot)
    assert isinstance(ask(admission, bot, "127.0.0.1:1"), SeatNow)
    assert admission.pending == ()


def test_the_memory_of_cooldowns_is_bounded() -> None:
    admission = asking(Clock())
    for n in range(3000):
        admission.removed(key())
        request = ask(admission, key(), f"10.{n // 65536}.{n // 256 % 256}.{n % 256}:1")
        assert isinstance(request, Request)
        admission.answer(request.number, False)
    assert len(admission._cooling_keys) <= 1024
    assert len(admission._source_refusals) <= 1024


@pytest.mark.parametrize("code", REFUSAL_CODES)
def test_a_refusal_carries_its_code_on_the_wire(code: str) -> None:
    wire = encode_lobby(Refuse(code, "why"))
    assert decode_lobby(wire[1:]) == Refuse(code, "why")


def test_a_refusal_reason_from_the_network_is_cleaned_and_an_unknown_code_is_final() -> None:
    import msgpack  # type: ignore[import-untyped]

    raw = msgpack.packb(["refuse", "later-maybe", "\x1b[2Jgo \u202eaway"], use_bin_type=True)
    assert decode_lobby(raw) == Refuse("refused", "[2Jgo away")


def test_busy_retries_back_off_with_jitter_up_to_a_cap_and_a_total() -> None:
    waits = busy_waits(180.0)
    assert 5 <= len(waits) <= 30
    assert all(0 < w <= 15.0 for w in waits)
    assert sum(waits) <= 180.0
    assert waits[0] <= 1.0 and waits[-1] >= 7.5  # doubling, then capped
    assert busy_waits(180.0) != waits  # jittered


CODE = bytes([1, 2, 3])


def with_code(clock: Clock, *, person: bool = True) -> Admission:
    return Admission(ask=person, clock=clock, code=CODE)


def ask_with(admission: Admission, code: bytes | None, address: str = "192.0.2.1:5000") -> object:
    return admission.request(key(), "bob", address, seats_free=1, seated=False, code=code)


def test_a_request_without_the_right_code_is_refused_before_the_person_is_asked() -> None:
    admission = with_code(Clock())
    missing = ask_with(admission, None)
    wrong = ask_with(admission, bytes([1, 2, 4]))
    short = ask_with(admission, bytes([1, 2]))
    assert isinstance(missing, Refusal) and missing.code == "code"
    assert isinstance(wrong, Refusal) and wrong.code == "code"
    assert isinstance(short, Refusal) and short.code == "code"
    assert "join code" in missing.reason and missing.reason != wrong.reason
    assert admission.pending == ()  # nobody was put before the person
    right = ask_with(admission, CODE, "192.0.2.2:1")
    assert isinstance(right, Request)  # still the person's to answer
    assert admission.pending == (right,)


def test_a_few_wrong_codes_cool_the_source_down_even_for_the_right_code() -> None:
    clock = Clock()
    admission = with_code(clock)
    for _ in range(WRONG_CODES):
        refused = ask_with(admission, b"\x00\x00\x00", "[fd00:1:2:3::5]:9")
        assert isinstance(refused, Refusal) and refused.code == "code"
    # Another address in the same /64 is the same source: its right code is not even compared.
    cooled = ask_with(admission, CODE, "[fd00:1:2:3::77]:9")
    assert isinstance(cooled, Refusal) and cooled.code == "refused"
    assert isinstance(ask_with(admission, CODE, "[fd00:1:2:4::1]:9"), Request)  # another /64
    clock.now += REFUSAL_COOLDOWN + 1
    assert isinstance(ask_with(admission, CODE, "[fd00:1:2:3::5]:9"), Request)


def test_wrong_codes_under_the_limit_leave_the_source_free() -> None:
    admission = with_code(Clock())
    for _ in range(WRONG_CODES - 1):
        ask_with(admission, None)
    assert isinstance(ask_with(admission, CODE), Request)


def test_a_host_without_a_person_seats_the_right_code_and_refuses_the_others() -> None:
    admission = with_code(Clock(), person=False)
    assert isinstance(ask_with(admission, CODE), SeatNow)
    refused = ask_with(admission, None)
    assert isinstance(refused, Refusal) and refused.code == "code"


def test_the_hosts_own_bots_need_no_code() -> None:
    admission = with_code(Clock())
    bot = key()
    admission.trust(bot)
    assert isinstance(admission.request(bot, "bot-1", "127.0.0.1:1", seats_free=1, seated=False),
                      SeatNow)  # fmt: skip


def test_the_per_source_memory_of_wrong_codes_is_bounded() -> None:
    admission = with_code(Clock())
    for n in range(3000):
        ask_with(admission, None, f"10.{n // 256}.{n % 256}.1:1")
    assert len(admission._wrong_codes) <= 1024
