"""A peer that freezes (SIGSTOP: alive, connected, silent) is named as stalling after the
table's stall timeout (`host --stall-timeout 4`, a rule every seat agreed to in the genesis);
the others stop with exit status 3, and their records and logs are kept and verify clean, the
match unfinished.
"""

from __future__ import annotations

import random
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from p2p_dominoes.net.going_on import STOP_ON_STALL
from tests.chaos.figures import Figures
from tests.chaos.peers import RecordProperty, Table, in_phase, verify, wait_until

PLAYERS = 3
STALL_TIMEOUT = 4
VERDICT_STALL_TIMEOUT = 3
"""The verdict test's stall limit: 2 s under the transport's silence limit, a margin that holds
when the host's move comes a second after the freeze on a loaded machine."""
ATTEMPTS = 3
HANDS = 50
"""More than a match lasts: the freeze always comes before the end."""


def stop_on_stall(table: Table) -> None:
    """Every peer stops at a stall instead of going on without the seat (v4, §16): the verdict
    is what these tests watch (`tests/chaos/test_leaving_lan.py` watches the table go on)."""
    for peer in table.peers:
        peer.env[STOP_ON_STALL] = "1"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("who", "moment"),
    [("host", "any point"), ("joiner", "turns")],
    ids=["host-frozen-at-any-point", "joiner-frozen-in-turns"],
)
def test_a_frozen_peer_is_named_as_stalling_and_the_others_keep_their_records(
    tmp_path: Path,
    figures: Figures,
    who: str,
    moment: str,
    record_property: RecordProperty,
) -> None:
    rng = random.Random()
    host_args = ("--stall-timeout", str(STALL_TIMEOUT))
    with ExitStack() as stack:
        for attempt in range(ATTEMPTS):
            root = tmp_path / f"match{attempt}"
            table = Table(root, PLAYERS, HANDS, ["127.0.0.1"] * PLAYERS, host_args=host_args)
            stack.enter_context(table)
            stop_on_stall(table)
            table.open()
            frozen = table.host if who == "host" else rng.choice(table.peers[1:])
            if moment == "turns":
                wait_until(in_phase(frozen, "turns"), 10.0)
            else:
                time.sleep(rng.uniform(0.0, 1.0))
            frozen.freeze()
            froze = time.monotonic()
            at_freeze = frozen.log()
            assert at_freeze is not None
            if at_freeze.finished is None:
                break
            frozen.thaw()  # the match was over already (it can be, after one hand): again
            assert set(table.wait_all(30.0).values()) == {0}, table.outputs()
        else:
            raise AssertionError(f"{ATTEMPTS} matches were over before the freeze")
        others = [p for p in table.peers if p is not frozen]
        statuses = {p.label: p.wait(STALL_TIMEOUT + 30.0) for p in others}
        stopped_after = time.monotonic() - froze
        outputs = table.outputs()
        assert all(status == 3 for status in statuses.values()), (statuses, outputs)
        for peer in others:
            said = peer.output()
            verdict = f"The table stopped: {frozen.label} is not responding — "
            assert verdict in said, said
            view = peer.log()
            directory = peer.table_dir()
            assert view is not None and directory is not None
            assert view.finished is not None
            stalled = f"seat {at_freeze.seat + 1}: sent nothing"  # seats count from 1
            assert view.finished.startswith(stalled), view.finished
            for path in (peer.record, directory):
                result = verify(path)
                assert result.status == 0, result.output
                assert ": clean — " in result.output and "match unfinished" in result.output, (
                    result.output
                )
        frozen.thaw()
        frozen.kill()
        directory = frozen.table_dir()
        assert directory is not None
        assert "match unfinished" in verify(directory).output  # its own log, too
    stall = {
        "peer": frozen.label,
        "seat": at_freeze.seat,
        "frozen_after": at_freeze.last_type,
        "others_stopped_after_s": round(stopped_after, 2),
        "stall_timeout_s": STALL_TIMEOUT,
    }
    figures.stalls.append(stall)
    record_property("stall", stall)
    print(f"\n  {stall}")


@pytest.mark.slow
def test_the_stalled_peer_is_told_the_same_verdict_as_the_peer_that_named_it(
    tmp_path: Path, figures: Figures, record_property: RecordProperty
) -> None:
    """The host names a frozen joiner after the stall timeout and sends its signed stop notice
    before it stops; the joiner, thawed, reads it and stops too (exit 3) with the very same
    sentence, instead of playing on and later blaming the host.

    The notice travels on the frozen peer's live link, so the host must name it before the
    transport closes that link for silence (5 s without a word): this table's stall limit is
    well below it (at the default 180 s the link is always closed first, and the stalled peer
    hears the verdict when it comes back: `…_that_was_gone_hears_the_verdict`)."""
    host_args = ("--stall-timeout", str(VERDICT_STALL_TIMEOUT))
    with ExitStack() as stack:
        for attempt in range(ATTEMPTS):
            table = Table(
                tmp_path / f"m{attempt}", 2, HANDS, ["127.0.0.1"] * 2, host_args=host_args
            )
            stack.enter_context(table)
            stop_on_stall(table)
            table.open()
            frozen = table.peers[1]
            wait_until(in_phase(frozen, "turns"), 10.0)
            frozen.freeze()
            at_freeze = frozen.log()
            assert at_freeze is not None
            if at_freeze.finished is None:
                break
            frozen.thaw()
            assert set(table.wait_all(30.0).values()) == {0}, table.outputs()
        else:
            raise AssertionError(f"{ATTEMPTS} matches were over before the freeze")
        froze = time.monotonic()
        assert table.host.wait(VERDICT_STALL_TIMEOUT + 30.0) == 3, table.outputs()
        host_stopped = time.monotonic() - froze
        frozen.thaw()
        thawed = time.monotonic()
        assert frozen.wait(30.0) == 3, table.outputs()
        told_after = time.monotonic() - thawed
        host_line = table.host.output().strip().splitlines()[-1]
        frozen_line = frozen.output().strip().splitlines()[-1]
        assert host_line.startswith(f"The table stopped: {frozen.label} is not responding — ")
        assert frozen_line == host_line, table.outputs()
        for peer in table.peers:
            view = peer.log()
            assert view is not None and view.finished is not None
            assert view.finished.startswith(f"seat {at_freeze.seat + 1}: sent nothing"), (
                view.finished
            )
            result = verify(peer.record)
            assert result.status == 0 and ": clean — " in result.output, result.output
    verdict = {
        "peer": frozen.label,
        "frozen_after": at_freeze.last_type,
        "host_stopped_after_s": round(host_stopped, 2),
        "stalled_peer_stopped_after_thaw_s": round(told_after, 2),
        "both_said": host_line,
    }
    figures.stalls.append(verdict)
    record_property("verdict", verdict)
    print(f"\n  {verdict}")


@pytest.mark.slow
def test_a_stalled_peer_that_was_gone_hears_the_verdict_when_it_resumes(
    tmp_path: Path, figures: Figures, record_property: RecordProperty
) -> None:
    """The joiner is killed (its link drops) and named after the stall timeout; the host, whose
    stalled seat is not connected, stays a while for it to come back: the joiner's `resume`
    then hears the signed stop notice and stops with the host's very sentence (exit 3)."""
    host_args = ("--stall-timeout", str(STALL_TIMEOUT))
    with ExitStack() as stack:
        for attempt in range(ATTEMPTS):
            table = Table(
                tmp_path / f"m{attempt}", 2, HANDS, ["127.0.0.1"] * 2, host_args=host_args
            )
            stack.enter_context(table)
            stop_on_stall(table)
            table.open()
            gone = table.peers[1]
            wait_until(in_phase(gone, "turns"), 10.0)
            gone.kill()
            at_kill = gone.log()
            assert at_kill is not None
            if at_kill.finished is None:
                break
            assert table.host.wait(30.0) == 0, table.outputs()
        else:
            raise AssertionError(f"{ATTEMPTS} matches were over before the kill")
        named = f"STOPPED: {gone.label} is not responding — "
        assert wait_until(lambda: named in table.host.output(), STALL_TIMEOUT + 30.0), (
            table.outputs()
        )
        run = gone.resume()
        assert gone.wait(30.0) == 3, table.outputs()
        told_after = time.monotonic() - run.started
        assert table.host.wait(30.0) == 3, table.outputs()
        host_line = table.host.output().strip().splitlines()[-1]
        gone_line = gone.output().strip().splitlines()[-1]
        assert host_line.startswith(f"The table stopped: {gone.label} is not responding — ")
        assert gone_line == host_line, table.outputs()
        view = gone.log()
        assert view is not None and view.finished is not None
        assert view.finished.startswith(f"seat {at_kill.seat + 1}: sent nothing"), view.finished
    verdict = {
        "peer": f"{gone.label} (killed, then resumed)",
        "killed_after": at_kill.last_type,
        "resume_to_verdict_s": round(told_after, 2),
        "both_said": host_line,
    }
    figures.stalls.append(verdict)
    record_property("verdict_on_resume", verdict)
    print(f"\n  {verdict}")
