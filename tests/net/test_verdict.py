"""The stall verdict in players' words (both languages), the signed stop notice, and the setup's
lost-seat rule (`net/verdict.py`, `net/setup_lost.py`)."""

from __future__ import annotations

import hashlib
import re
from types import SimpleNamespace
from typing import Any

import pytest

from p2p_dominoes.net.setup_lost import (
    SETUP_LOST_GRACE,
    SETUP_SILENT,
    SETUP_UNLINKED_GRACE,
    lost_at_setup,
)
from p2p_dominoes.net.stopping import settle_notice
from p2p_dominoes.net.verdict import (
    CHANNEL_NOTICE,
    NoticeError,
    StopNotice,
    agrees,
    checked_notice,
    task_words,
    verdict_line,
)
from p2p_dominoes.session import Identity, default_registry
from p2p_dominoes.session.events import Blame, CheatingDetected
from p2p_dominoes.ui.narration import narrate

TYPE_NAMES = sorted(t.name for t in default_registry())
"""Every message type's internal name (genesis, genesis_sign, play3, draw_share, …)."""
INTERNAL = sorted({n for n in TYPE_NAMES if "_" in n or any(c.isdigit() for c in n)} | {"genesis"})
"""The names no player may read: every one that is not a plain English word (`play`, `draw`,
`deal`, `shuffle`, `pass`, `skip` are words a sentence may use), and `genesis`."""


def _names_a_type(text: str) -> list[str]:
    words = set(re.findall(r"[a-z0-9_]+", text.lower()))
    return [name for name in INTERNAL if name in words]


def test_the_registry_has_the_types_players_must_never_read() -> None:
    assert {"genesis_sign", "play3", "draw_share", "key_reveal"} <= set(TYPE_NAMES)


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("type_name", [*TYPE_NAMES, None, "a_future_type"])
def test_no_verdict_or_stall_text_names_a_message_type(type_name: str | None, lang: str) -> None:
    for lottery in (False, True):
        line = verdict_line("Bob", type_name, lang, lottery)
        assert _names_a_type(line) == [], line
        assert "Bob" in line
    blame = Blame(1, f"sent nothing for 4 s when its {type_name} was expected", "stall")
    blame = Blame(blame.seat, blame.reason, blame.code, expected=type_name)
    for line in narrate(CheatingDetected(blame), ["Ann", "Bob"], lang):
        assert _names_a_type(line) == [], line


def test_the_checker_would_catch_a_type_name() -> None:
    assert _names_a_type("Bob is stalling — its play3 was expected") == ["play3"]
    assert _names_a_type("its genesis_sign was expected") == ["genesis_sign"]


@pytest.mark.parametrize(
    ("type_name", "english", "russian"),
    [
        ("play3", "it was Bob's turn to play", "был ход игрока Bob"),
        ("draw", "it was Bob's turn to play", "был ход игрока Bob"),
        (
            "draw_share",
            "Bob had to send their share of a drawn tile",
            "Bob должен(на) был(а) прислать свою долю вытянутой кости",
        ),
        (
            "genesis_sign",
            "Bob had to sign the table's start",
            "Bob должен(на) был(а) подписать начало стола",
        ),
        ("shuffle", "Bob had to shuffle the tiles", "Bob должен(на) был(а) перемешать кости"),
    ],
)
def test_each_kind_of_wait_has_its_words(type_name: str, english: str, russian: str) -> None:
    assert task_words(type_name, "Bob", "en") == english
    assert task_words(type_name, "Bob", "ru") == russian
    english_line = f"The table stopped: Bob is not responding — {english}."
    assert verdict_line("Bob", type_name) == english_line
    assert verdict_line("Bob", type_name, "ru") == f"Стол остановлен: Bob не отвечает — {russian}."


def _notice(signer: Identity, by: int = 0, stalled: int = 1) -> StopNotice:
    return StopNotice(b"t" * 16, b"h" * 32, stalled, "play3", False, by).sign(signer)


def test_a_stop_notice_round_trips_and_is_checked_against_its_sender() -> None:
    ann, bob = Identity.generate(), Identity.generate()
    keys = (ann.public, bob.public)
    data = _notice(ann).encode()
    assert data[0] == CHANNEL_NOTICE
    notice = checked_notice(data[1:], 0, b"t" * 16, keys)
    assert notice.line(("Ann", "Bob")) == verdict_line("Bob", "play3")
    with pytest.raises(NoticeError):  # said by seat 0, arriving from seat 1
        checked_notice(data[1:], 1, b"t" * 16, keys)
    with pytest.raises(NoticeError):  # another table
        checked_notice(data[1:], 0, b"u" * 16, keys)
    with pytest.raises(NoticeError):  # signed by someone else than seat 0
        checked_notice(_notice(bob).encode()[1:], 0, b"t" * 16, keys)
    with pytest.raises(NoticeError):  # naming its own sender
        checked_notice(_notice(ann, stalled=0).encode()[1:], 0, b"t" * 16, keys)
    with pytest.raises(NoticeError):
        checked_notice(b"\x93\x01\x02\x03", 0, b"t" * 16, keys)


def _lost(**given: object) -> int | None:
    facts: dict[str, object] = {
        "own_seat": 0,
        "seats": 3,
        "links": {1, 2},
        "lost": {},
        "signed": (0,),
        "expected": 1,
        "started": 100.0,
        "now": 101.0,
        "stall_timeout": 180.0,
    }
    facts.update(given)
    return lost_at_setup(**facts)  # type: ignore[arg-type]


def test_the_host_frees_a_seat_lost_during_the_setup_after_a_short_grace() -> None:
    assert _lost() is None
    assert _lost(links={1}, lost={2: 100.5}) is None  # it may come back at once
    assert _lost(links={1}, lost={2: 100.5}, now=100.5 + SETUP_LOST_GRACE) == 2
    assert _lost(links={1}, now=100.0 + SETUP_UNLINKED_GRACE) == 2  # never connected
    assert _lost(now=100.0 + SETUP_SILENT) == 1  # connected, but does not sign
    assert _lost(now=100.0 + 5.0, stall_timeout=4.0) == 1  # never longer than the stall timeout


def test_a_joiner_watches_only_the_host() -> None:
    assert _lost(own_seat=2, links={0}, lost={1: 0.0}, now=200.0, expected=1) is None
    assert _lost(own_seat=2, links=set(), lost={0: 100.0}, now=100.0 + SETUP_LOST_GRACE) == 0


NOTICE_VECTOR = (
    "0498a773746f70706564c410000102030405060708090a0b0c0d0e0fc4201111"
    "11111111111111111111111111111111111111111111111111111111111101a5"
    "706c617933c200c440fb1eed6cf980b15e8b6f41db0706389ff3e7aff11b2bdc"
    "51f1d266e4c70d914f0e0330bb1911265a7a874b378baed2bd310f9025e2f73a"
    "96ae61c209a40d120e"
)
"""PROTOCOL.md §15's stop-notice vector."""


def test_the_stop_notice_vector_of_the_protocol() -> None:
    alice = Identity.from_private_bytes(hashlib.sha256(b"alice").digest())
    notice = StopNotice(bytes(range(16)), b"\x11" * 32, 1, "play3", False, 0).sign(alice)
    assert notice.encode().hex() == NOTICE_VECTOR
    keys = (alice.public, Identity.generate().public)
    assert checked_notice(bytes.fromhex(NOTICE_VECTOR)[1:], 0, bytes(range(16)), keys) == notice


def _entry(prev: bytes, seat: int, digest: bytes) -> Any:
    """Just what `agrees` reads of a transcript entry: the head it follows, its seat, its hash."""
    return SimpleNamespace(envelope=SimpleNamespace(head=prev, seat=seat), hash=digest)


def test_a_notice_stops_the_table_only_where_its_sender_stopped() -> None:
    notice = _notice(Identity.generate(), by=0, stalled=1)  # at head 32 × "h", naming seat 1
    h, g, x = b"h" * 32, b"g" * 32, b"x" * 32
    at_h = [_entry(g, 0, h)]  # the last message has hash h: we are at the notice's head
    assert agrees(notice, at_h, (1, ()))
    assert not agrees(notice, at_h, (2, ()))  # we wait for someone else there
    assert not agrees(notice, at_h, None)
    behind = [_entry(x, 0, g)]
    assert not agrees(notice, behind, (1, ()))  # not there yet: catching up may bring us
    late = [_entry(g, 0, h), _entry(h, 1, x)]  # seat 1's message after h: it came too late
    assert agrees(notice, late, (0, ()))
    went_on = [_entry(g, 0, h), _entry(h, 1, x), _entry(x, 0, b"y" * 32)]
    assert not agrees(notice, went_on, (1, ()))  # the table went on past it: a false notice


def test_a_notice_waits_for_our_transcript_to_agree() -> None:
    notice = _notice(Identity.generate(), by=0, stalled=1)
    session = SimpleNamespace(
        transcript=SimpleNamespace(entries=[_entry(b"x" * 32, 0, b"g" * 32)]),
        expected=(1, ()),
        finished=False,
    )
    run: Any = SimpleNamespace(session=session, heard=notice, notice=None)
    settle_notice(run)
    assert run.notice is None
    session.transcript.entries.append(_entry(b"g" * 32, 0, b"h" * 32))  # caught up to its head
    settle_notice(run)
    assert run.notice is notice


def test_a_page_stopped_by_another_seats_notice_shows_its_sentence() -> None:
    from p2p_dominoes.ui.web.snapshot import stopped_json
    from p2p_dominoes.ui.web.table_progress import TableProgress

    line = verdict_line("Bob", "draw_share")
    stopped = stopped_json(None, TableProgress(verdict=(1, line)), ["Ann", "Bob"], "en")
    assert stopped == {
        "reason": "stall",
        "seat": 1,
        "name": "Bob",
        "text": "The table stopped: Bob is not responding — Bob had to send their share of a "
        "drawn tile.",
        "next": ["lobby", "record"],
    }


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_goodbye_and_a_continuation_are_said_as_what_the_player_did(lang: str) -> None:
    left = verdict_line("Cat", "goodbye", lang)
    assert ("Cat left the table" if lang == "en" else "Cat ушёл(а) из-за стола") in left
    for type_name in ("continue", "continue_sign"):
        said = task_words(type_name, "Ann", lang)
        assert said == task_words("continue", "Ann", lang) != task_words(None, "Ann", lang)
