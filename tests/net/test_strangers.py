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


def test_many_strangers_are_named_a_few_times_then_counted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from p2p_dominoes.net.strangers import StrangerTally

    now = [0.0]
    tally = StrangerTally(
        logging.getLogger("test.tally"),
        "refused: not seated at this table",
        first=5,
        interval=60,
        clock=lambda: now[0],
        memory=SourceMemory(),
    )
    with caplog.at_level(logging.WARNING, logger="test.tally"):
        logged = [tally.warn(f"10.0.{n // 200}.{n % 200}:4000", f"FP{n}") for n in range(1000)]
        assert sum(logged) == 5 and len(caplog.records) == 5
        assert all("not seated at this table: FP" in r.getMessage() for r in caplog.records)
        now[0] = 61.0
        tally.warn("10.0.9.9:1", "FPlast")
    summary = caplog.records[5].getMessage()
    assert summary.startswith("995 more strangers refused: not seated at this table, from 995 ")
    assert len(caplog.records) == 7  # the summary, then the new interval's first line


async def test_a_resumed_tables_strangers_are_not_a_line_each(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from types import SimpleNamespace

    from p2p_dominoes.net import mesh
    from p2p_dominoes.net.strangers import StrangerTally
    from p2p_dominoes.session import Identity

    monkeypatch.setattr(
        mesh,
        "_NOT_SEATED",
        StrangerTally(mesh.log, "refused: not seated at this table", memory=SourceMemory()),
    )
    # A seated table whose seats (now, and before any continuation) are none of the strangers'.
    session: object = SimpleNamespace(
        seat=0, transcript=SimpleNamespace(keys=(), held_before=lambda key: False)
    )
    closed: list[str] = []

    class _Stranger:
        def __init__(self, number: int) -> None:
            self.peer = Identity.from_private_bytes(number.to_bytes(32, "big")).public
            self.remote_address = f"10.1.{number // 250}.{number % 250}:5000"

        async def aclose(self, reason: str) -> None:
            closed.append(reason)

    with caplog.at_level(logging.WARNING, logger=mesh.log.name):
        for number in range(1, 301):
            await mesh.serve_seated(_Stranger(number), session, None)  # type: ignore[arg-type]
    assert closed == ["not seated at this table"] * 300
    lines = [r for r in caplog.records if "not seated" in r.getMessage()]
    assert len(lines) == 5, [r.getMessage() for r in lines]
