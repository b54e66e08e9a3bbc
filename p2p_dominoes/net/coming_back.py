"""v4 (PROTOCOL.md §16.1): a player who left comes back with `resume` and takes its seat again.

The returner's old key no longer holds the seat, so the others serve it as a *former holder*
(`mesh.serve_former`: catch-up only). Once it has caught up and read that its seat went on,
`resume` makes a fresh key and sends its request — the seat, its name and the fresh key, signed
by its old key — to the seats it is linked to, on a channel of its own. The seat that proposes
(the lowest seat other than the returner's) puts it on the table at the next hand's start
(`TableSession.ask_back`) if it agrees (`going_on.agrees_to_come_back`); the continuation gives
the seat to the fresh key. The returner keeps following as an observer until then, and sits
down again as a new holder (`take_seat`), with the transcript so far and the others' addresses.
If the match ends first, or the seat does not come back in time, `resume` says the table went
on without it, where the record is, and stops (3).
"""

from __future__ import annotations

import logging
from typing import Final

import trio

from p2p_dominoes.net.come_back_wire import MAX_NAME_BYTES, encode_ask
from p2p_dominoes.net.handover import Handover
from p2p_dominoes.net.links import link_down
from p2p_dominoes.net.peer_options import ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.table_run import (
    Arrived,
    AskedBack,
    Link,
    LinkDown,
    LinkUp,
    TableRun,
    Tick,
)
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import (
    Identity,
    TableSession,
    Transcript,
    default_registry,
)
from p2p_dominoes.session.come_back_relay import proposer_of
from p2p_dominoes.session.events import Update
from p2p_dominoes.session.leave_messages import ask_to_come_back

log = logging.getLogger("p2p_dominoes.net")

BACK: Final = -29
"""`play_table`'s status when our seat is ours again under a fresh key (never an exit status:
`resume` then sits down as the seat's new holder, `TableRun.back_with`)."""
WAIT_STALLS: Final = 10
"""How long a returner waits for its seat, in stall limits, before it says the table went on."""


def heard(run: TableRun, ask: AskedBack, agrees: bool) -> Update:
    """As the seat that proposes: put the request on the table at the next hand's start, if
    our side agrees (`agrees`); what to send now (nothing, until a hand begins). Any other
    seat passes it on to the one that proposes (`pass_on`)."""
    session = run.session
    if session.seat is None or session.seat != proposer_of(session.players, ask.seat):
        pass_on(run, ask)
        return Update()
    waiting = session.coming_back
    if waiting is not None and (waiting.seat, waiting.key, waiting.asked) == (
        ask.seat,
        ask.key,
        ask.asked,
    ):
        return Update()  # the same request again (passed on by another seat too): kept
    if not agrees:
        log.info("seat %d asks to come back; not agreed here", ask.seat + 1)
        return Update()
    try:
        update = run.session.ask_back(ask.seat, ask.name, ask.key, ask.asked)
    except ValueError as exc:  # not ours to propose, or not its former holder: nothing kept
        log.info("seat %d asks to come back: %s", ask.seat + 1, exc)
        return Update()
    name = peer_text(ask.name, MAX_NAME_BYTES)
    run.options.say(said("back_asked", ui_lang(run.options), name=name))
    return update


def pass_on(run: TableRun, ask: AskedBack) -> None:
    """§16.1: a request heard from a former holder that is not ours to propose goes on to the
    seat that proposes it, over our link to it (the returner may not reach that seat: a bot's
    address is told to no one). Only a valid one, once, bounded (`ComeBackRelay`); never one
    a seat passed on to us. Without a link to that seat yet, it waits for one (`send_held`)."""
    if ask.by is not None:
        return
    to = run.relay.pass_to(run.session, ask.seat, ask.name, ask.key, ask.asked, run.clock())
    if to is None:
        return
    request = encode_ask(ask)
    link = run.links.get(to)
    if link is not None:
        link.post(request)
    else:
        run.asks_held[to] = request
    name = peer_text(ask.name, MAX_NAME_BYTES)
    run.options.say(said("back_passed_on", ui_lang(run.options), name=name, to=run.names[to]))


def send_held(run: TableRun, link: Link) -> None:
    """A link to a seat came up: the request we hold for it, if any, goes now (`pass_on`)."""
    request = run.asks_held.pop(link.seat, None)
    if request is not None:
        link.post(request)


async def ask_and_wait(run: TableRun) -> tuple[Identity, TableSession] | None:
    """As a returner whose seat went on (the continuation is in our transcript, or our records
    parted at the goodbye's head): ask it back under a fresh key, and follow the others' chain
    from the genesis with an observer until its continuation gives the seat to us (the key and
    the observer), or the match ends or we waited long enough (None)."""
    session, seat = run.session, run.seat
    fresh = Identity.generate()
    genesis = session.transcript.entries[0].envelope
    follower = TableSession(Transcript(genesis, default_registry()), None, None)
    follower.goes_on_after_goodbye = True
    name = session.transcript.genesis.seats[seat].name
    asked = ask_to_come_back(
        run.options.identity, session.transcript.table_id, seat, name, fresh.public
    )
    request = encode_ask(AskedBack(seat, name, fresh.public, asked))
    for link in run.links.values():
        link.post(request)
        link.post_sync(follower.transcript.head)
    run.options.say(said("asking_back", ui_lang(run.options)))
    with trio.move_on_after(WAIT_STALLS * session.rules.stall_timeout_s):
        while not follower.finished:
            if follower.transcript.keys[seat] == fresh.public:
                return fresh, follower
            item = await run.inbox.receive.receive()
            if isinstance(item, Arrived):
                follower.receive(item.payload, item.seat)
            elif isinstance(item, LinkUp):
                old = run.links.get(item.link.seat)
                if old is not None:
                    run.spare_links.append(old)
                run.links[item.link.seat] = item.link
                item.link.post_sync(follower.transcript.head)
                item.link.post(request)
            elif isinstance(item, LinkDown):
                link_down(run, item)
            elif isinstance(item, Tick):
                for link in run.links.values():  # the others answer a former holder's asks
                    link.post_sync(follower.transcript.head)
    if follower.transcript.keys[seat] == fresh.public:
        return fresh, follower
    return None


def handover(seat: int, follower: TableSession, peers: dict[int, tuple[str, int]]) -> Handover:
    """What we need to sit down again: our seat, the others' transcript so far (`follower`'s),
    and the others' addresses."""
    messages = tuple(entry.encoded for entry in follower.transcript.entries)
    listed = tuple((s, host, port) for s, (host, port) in sorted(peers.items()) if s != seat)
    return Handover(seat, messages, listed)
