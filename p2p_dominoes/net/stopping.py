"""How a table run stops before its match is over, as the runtime sees it: the setup lost a seat
(the host sends us back to the lobby, or we find a seat gone ourselves: `setup_lost.py`), or a
seat's signed stop notice agrees with our table (`verdict.py`), or we sign our own."""

from __future__ import annotations

import logging

from p2p_dominoes.net.lobby import Refuse
from p2p_dominoes.net.setup_lost import (
    AGAIN_CODE,
    LOG_REASON,
    SETUP_UNLINKED_GRACE,
    UNSTARTED_CODE,
    SetupLost,
    lost_at_setup,
)
from p2p_dominoes.net.table_run import TableRun
from p2p_dominoes.net.verdict import NoticeError, StopNotice, agrees, checked_notice
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import Phase, is_lottery_stall
from p2p_dominoes.store import HandSecrets

log = logging.getLogger("p2p_dominoes.net")


def host_said(run: TableRun, seat: int, refusal: Refuse) -> None:
    """The host sends us back to the lobby (a seat was lost before the start), or says the table
    we resume never started: heeded only while the genesis is still being signed."""
    if run.session.phase is Phase.SETUP and refusal.code in (AGAIN_CODE, UNSTARTED_CODE):
        words = peer_text(refusal.reason, 200)
        run.abandoned = SetupLost(seat, told=True, words=words)


def watch_setup(run: TableRun) -> None:
    """During the genesis signatures: a seat (the host, for a joiner) gone for a few seconds
    ends the setup at once, not after the stall timeout (`lost_at_setup`)."""
    session = run.session
    expected = session.expected
    seat = lost_at_setup(
        own_seat=run.seat,
        seats=len(run.names),
        links=run.links.keys(),
        lost=run.lost,
        signed=range(len(session.transcript) - 1),  # genesis signatures come in seat order
        expected=expected[0] if expected is not None else None,
        started=run.setup_started,
        now=run.clock(),
        stall_timeout=float(session.rules.stall_timeout_s),
        unlinked_grace=run.setup_watch or SETUP_UNLINKED_GRACE,
    )
    if seat is not None:
        run.abandoned = SetupLost(seat)


def abandon(run: TableRun) -> int:
    """The setup was given up: our log says the table never started (so `resume` does not offer
    it), the links are let go, and status 3 is returned (the caller decides what comes next)."""
    lost = run.abandoned
    assert lost is not None
    name = peer_text(run.names[lost.seat], 64)
    if run.log is not None:
        run.log.finish(LOG_REASON.format(seat=lost.seat + 1, name=name))
        HandSecrets(run.log.path.parent).forget_all()
        run.log.close()
    for link in [*run.links.values(), *run.spare_links]:
        link.outbox.close()
    return 3


def own_notice(run: TableRun) -> StopNotice | None:
    """Our signed stop notice, when our session stopped because a seat stalled."""
    blame = run.session.blame
    if blame is None or blame.code != "stall":
        return None
    transcript = run.session.transcript
    notice = StopNotice(
        transcript.table_id,
        transcript.head,
        blame.seat,
        blame.expected or "",
        is_lottery_stall(blame),
        run.seat,
    )
    return notice.sign(run.options.identity)


def heard_notice(run: TableRun, seat: int, payload: bytes) -> None:
    """A stop notice from `seat`: one that checks (`checked_notice`) waits in `run.heard` until
    it agrees with our own table (`settle_notice`); an invalid one is logged and ignored."""
    if run.session.finished or run.notice is not None:
        return
    transcript = run.session.transcript
    try:
        run.heard = checked_notice(payload, seat, transcript.table_id, transcript.keys)
    except NoticeError as exc:
        log.info("seat %d: %s", seat, exc)
    settle_notice(run)


def settle_notice(run: TableRun) -> None:
    """A notice heard stops our table once our transcript agrees with it: we hold its head and
    wait, like its sender, for the seat it names — or all we hold after that head was signed by
    that seat (its messages that came too late: the stalled peer itself, or one that got them).
    Catching up may bring us there. A seated peer cannot stop the table by naming a seat nobody
    waits for, or at another point of the match."""
    heard, session = run.heard, run.session
    if heard is None or run.notice is not None or session.finished:
        return
    if agrees(heard, session.transcript.entries, session.expected):
        run.notice = heard


def stop_by_notice(run: TableRun) -> int:
    """Another seat stopped the table because a seat stalled (perhaps ours): our log says so,
    and we show the same verdict as every other peer; status 3."""
    notice = run.notice
    assert notice is not None
    if run.log is not None:
        run.log.sync(run.session.transcript)
        run.log.finish(  # like the sender's own record of the stall (`TableSession.stall`)
            f"seat {notice.stalled + 1}: sent nothing when its {notice.expected} was expected "
            f"(said by seat {notice.by + 1}'s signed stop notice)"
        )
        run.log.close()
    for link in [*run.links.values(), *run.spare_links]:
        link.outbox.close()
    names = tuple(peer_text(name, 64) for name in run.names)
    line = notice.line(names, str(getattr(run.options.ui, "lang", "en")))
    run.options.say(line)
    shown = getattr(run.options.ui, "verdict", None)  # a page shows it as the table's stop
    if callable(shown):
        shown(notice.stalled, line)
    return 3
