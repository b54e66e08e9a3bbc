"""A table run's end: save the record, tell a stall's verdict, linger until every seat holds
our last messages (or the stalled seat comes back to hear it), close the log, and the exit
status with its one line."""

from __future__ import annotations

from typing import Final

import trio

from p2p_dominoes.net.catch_up import answer_sync
from p2p_dominoes.net.links import link_down
from p2p_dominoes.net.peer_options import ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.stopping import own_notice
from p2p_dominoes.net.table_run import LinkDown, LinkUp, SyncAsked, TableRun
from p2p_dominoes.net.verdict import verdict_line
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.store import HandSecrets, TableLog, save_transcript
from p2p_dominoes.words import phrase, reason_in

FINISH_LINGER: Final = 1.5
"""Seconds a peer stopped by a blame stays to answer the others' catch-up requests."""
FINISH_LINGER_MAX: Final = 15.0
"""Longest a finished peer waits for every seat to hold the final message (one that crashed
at the very end and is resuming needs a peer to fetch the last messages from)."""
TOLD_LINGER: Final = 3.0
"""Seconds a peer stays, once the seat it named as stalling came back and was sent the notice,
to answer that seat's catch-up request (it agrees with the notice only at the notice's head)."""
FINISH_FLUSH: Final = 1.0
"""Longest a finished peer waits for its queued messages to go out before it hangs up."""


def save(run: TableRun) -> None:
    """Write the transcript to `--record`'s file; a failure is said, and play goes on."""
    assert run.options.record is not None
    try:
        save_transcript(run.options.record, run.session.transcript)
    except OSError as exc:
        reason = exc.strerror or exc
        run.options.say(
            said("no_record", ui_lang(run.options), path=run.options.record, reason=reason)
        )


async def finish(run: TableRun) -> int:
    """The match is over (or a blame stopped it): keep the record and the log, tell a stall's
    verdict to every seat, linger for the others, then say how it ended; the exit status."""
    session = run.session
    lang = ui_lang(run.options)
    if run.options.record is not None:
        save(run)
    if run.log is not None:
        run.log.sync(session.transcript)
        blame = session.blame
        if blame is not None:
            for evidence in blame.evidence:
                run.log.keep_evidence(evidence)
    run.told = own_notice(run)
    if run.told is not None:  # every seat, the stalled one included, is told the verdict
        for link in [*run.links.values(), *run.spare_links]:
            link.post(run.told.encode())
    await _linger(run)
    if run.log is not None:
        # Only now: until the others hold our last messages, a crash must leave a table that
        # `resume` takes up again (those messages may be in no other log yet).
        blame = session.blame
        run.log.finish("over" if blame is None else str(blame))
        # The table is over or abandoned: no hand's keys are needed again (a halted hand's
        # keys would reveal this seat's tiles with the transcript).
        hand_secrets(run.log).forget_all()
    for link in run.links.values():
        link.outbox.close()
    if run.log is not None:
        run.log.close()
    if run.options.timing is not None:
        run.options.timing.mark("end")
        run.options.timing.close()
    if run.told is not None:  # a stall: the sentence every peer shows (net/verdict.py)
        name = peer_text(run.names[run.told.stalled], 64)
        lottery = run.told.lottery
        run.options.say(verdict_line(name, run.told.expected, lang, lottery))
        return 3
    if session.blame is not None:
        blamed = run.names[session.blame.seat]
        via = session.blame.via
        reason = session.blame.reason
        if via is not None:  # the evidence's relay, a value of the phrase (not glued on)
            reason = phrase("net.blame_forwarded", reason=reason, name=run.names[via])
        run.options.say(said("stopped_blame", lang, name=blamed, reason=reason_in(reason, lang)))
        return 3
    run.options.say(said("final_hash", lang, hash=session.transcript.head.hex()))
    return 0


def hand_secrets(log: TableLog) -> HandSecrets:
    """The per-hand keys kept next to a table's log."""
    return HandSecrets(log.path.parent)


async def _linger(run: TableRun) -> None:
    """Stay until every seat holds our final head, so none is left without the last messages
    (also one that crashed at the very end and comes back), at most FINISH_LINGER_MAX seconds;
    FINISH_LINGER after a blame. We say we hold it with a catch-up request from that head;
    peers that connect meanwhile are served like during play. After a stall named by us while
    the stalled seat is not connected, we wait up to FINISH_LINGER_MAX for it to come back
    (`resume`), and tell it the verdict (our stop notice)."""
    session = run.session
    head = session.transcript.head
    others = set(range(len(run.names))) - {run.seat}
    for link in run.links.values():
        link.post_sync(head)
    limit = FINISH_LINGER if session.blame is not None else FINISH_LINGER_MAX
    # A stalled seat that is not connected now may come back (`resume`) to hear the verdict.
    absent = run.told is not None and run.told.stalled not in run.links
    if absent:
        limit = FINISH_LINGER_MAX
    with trio.move_on_after(limit) as lingering:
        while absent or {seat for seat in others if run.heads.get(seat) == head} != others:
            item = await run.inbox.receive.receive()
            if isinstance(item, SyncAsked):
                answer_sync(run, item)
            elif isinstance(item, LinkUp):
                old = run.links.get(item.link.seat)
                if old is not None:
                    run.spare_links.append(old)
                run.links[item.link.seat] = item.link
                item.link.post_sync(head)
                if run.told is not None:
                    item.link.post(run.told.encode())
                    if absent and item.link.seat == run.told.stalled:
                        # It is back, and told: a little longer, for what it lacks to agree
                        # with the notice (its catch-up request follows).
                        absent = False
                        lingering.deadline = trio.current_time() + TOLD_LINGER
            elif isinstance(item, LinkDown):
                link_down(run, item)
    # The others may be waiting for our note: let the writers send what is queued.
    links = [*run.links.values(), *run.spare_links]
    with trio.move_on_after(FINISH_FLUSH):
        while any(link.outbox.statistics().current_buffer_used for link in links):
            await trio.sleep(0.02)
        await trio.sleep(0.1)
