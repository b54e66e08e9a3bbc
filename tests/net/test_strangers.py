"""Sources group IPv6 /64s; a stranger is named at most once per source per interval."""

import logging

import pytest

from p2p_dominoes.net.strangers import SourceMemory, StrangerLog, source_of


def test_an_ipv6_64_is_one_source_and_ipv4_addresses_are_their_own() -> None:
    assert source_of("[fd00:d0:1::1]:4000") == source_of("fd00:d0:1::ffff:2")
    assert source_of("fd00:d0:1::1") != source_of("fd00:d0:2::1")
    assert source_of("10.0.0.1:5") == "10.0.0.1"
    assert source_of("10.0.0.1") != source_of("10.0.0.2")
    assert source_of("::ffff:10.0.0.1") == "10.0.0.1"
    assert source_of("not an address\x1b") == "not an address"


def test_a_stranger_is_named_once_per_interval(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    strangers = StrangerLog(
        logging.getLogger("test.strangers"),
        interval=60,
        clock=lambda: now[0],
        memory=SourceMemory(),
    )
    with caplog.at_level(logging.WARNING, logger="test.strangers"):
        assert strangers.warn("10.0.0.9:1234", "sent garbage")
        assert not strangers.warn("10.0.0.9:1235", "sent garbage")
        assert strangers.warn("10.0.0.8:1", "sent garbage")
        now[0] = 61.0
        assert strangers.warn("10.0.0.9:1", "reset\x1b[2J")
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0] == "stranger at 10.0.0.9:1234: sent garbage"
    assert lines[2] == "stranger at 10.0.0.9:1: reset[2J (and 1 more since the last report)"
    assert len(lines) == 3


def test_the_logs_of_one_process_name_a_source_once_between_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The listener, a connection and discovery each keep a log; a stranger who trips two of
    them in a minute is still named once."""
    listener = StrangerLog(logging.getLogger("test.listener"))
    connection = StrangerLog(logging.getLogger("test.connection"))
    with caplog.at_level(logging.WARNING):
        assert listener.warn("10.0.0.7:4000", "turned away: too many handshakes in progress")
        assert not connection.warn("10.0.0.7:4001", "handshake timed out")
        assert connection.warn("10.0.0.6:4001", "handshake timed out")
    assert [r.getMessage() for r in caplog.records] == [
        "stranger at 10.0.0.7:4000: turned away: too many handshakes in progress",
        "stranger at 10.0.0.6:4001: handshake timed out",
    ]
