"""v4 (PROTOCOL.md §16.1), over real sockets on loopback: a returning player who reaches only a
seat that does not propose its return still has its request put on the table. That seat passes
it on over its link to the seat that proposes (whose address the returner may not know: a bot's
is told to no one), and the proposer keeps it for the next hand's start.

Three seats: seat 3 ("cat") went silent in hand 2 and a bot holds it; cat, with the key it left
with, connects to seat 2 (bob) only and asks its seat back. Seat 1 (ann) proposes its return and
is linked to bob. Each peer's table run is the real one's handling of what its links deliver
(`coming_back.heard`, `send_held`), fed by the real listener, handshake, `serve_seated` and
`serve_link`.
"""

from __future__ import annotations

from functools import partial

import pytest
import trio

from p2p_dominoes.net import coming_back
from p2p_dominoes.net.come_back_wire import encode_ask
from p2p_dominoes.net.connection import Connection, connect
from p2p_dominoes.net.listener import open_listener
from p2p_dominoes.net.mesh import dial_seat, serve_seated
from p2p_dominoes.net.peer_options import PeerOptions
from p2p_dominoes.net.table_run import AskedBack, Inbox, LinkUp, TableRun
from p2p_dominoes.session import Identity, TableSession
from p2p_dominoes.session.leave_messages import ask_to_come_back
from tests.net.joiner_ui import TableLinesUI
from tests.session.tables import in_hand_two, three_seats

BOUND = 30
"""Seconds a step on loopback may take at most (a loaded two-core machine included)."""


def _run(session: TableSession, ui: TableLinesUI) -> TableRun:
    identity = session._identity
    assert identity is not None
    options = PeerOptions(name=session.names[session.seat or 0], identity=identity, ui=ui)
    return TableRun(session, options, tuple(session.names), inbox=Inbox.new())


async def _table_run(run: TableRun, heard: trio.Event | None = None) -> None:
    """What `runtime.play_table` does with a link that comes up and a request (not the game)."""
    async for item in run.inbox.receive:
        if isinstance(item, LinkUp):
            run.links[item.link.seat] = item.link
            coming_back.send_held(run, item.link)
        elif isinstance(item, AskedBack):
            coming_back.heard(run, item, True)
            if heard is not None and run.session.coming_back is not None:
                heard.set()


@pytest.mark.parametrize("ann_linked_first", [True, False])
@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_request_that_reaches_another_seat_is_passed_on_to_the_one_that_proposes(
    ann_linked_first: bool, lang: str
) -> None:
    table, _ = three_seats(seed=3)
    table.run(until=in_hand_two)
    table.kill(2)
    table.run(until=lambda t: t.sessions[0].names[2] == "cat (bot)")
    old = next(s for s in table.replaced if s.seat == 2)._identity
    assert old is not None
    ann_says, bob_says = TableLinesUI(lang), TableLinesUI(lang)
    ann, bob = _run(table.sessions[0], ann_says), _run(table.sessions[1], bob_says)
    fresh = Identity.generate().public
    asked = ask_to_come_back(old, bob.session.transcript.table_id, 2, "cat", fresh)
    request = encode_ask(AskedBack(2, "cat", fresh, asked))
    heard = trio.Event()
    keys = bob.session.transcript.keys

    async def bob_serves(connection: Connection) -> None:
        await serve_seated(connection, bob.session, bob.inbox)

    listener = await open_listener(interface="127.0.0.1", port=0)
    address = ("127.0.0.1", listener.port)
    async with listener, trio.open_nursery() as nursery:
        await nursery.start(listener.serve, bob.options.identity, bob_serves)
        nursery.start_soon(_table_run, bob)
        nursery.start_soon(partial(_table_run, ann, heard))
        dial_ann = partial(dial_seat, ann.options, ann.inbox, 1, address, keys[1])
        if ann_linked_first:
            nursery.start_soon(dial_ann)
            with trio.fail_after(BOUND):
                while 0 not in bob.links:
                    await trio.sleep(0.01)
        async with connect(["127.0.0.1"], address[1], old, expect=keys[1]) as cat:
            await cat.send(request)
            if not ann_linked_first:  # bob holds it until a link to ann comes up
                with trio.fail_after(BOUND):
                    while 0 not in bob.asks_held:
                        await trio.sleep(0.01)
                nursery.start_soon(dial_ann)
            with trio.fail_after(BOUND):
                await heard.wait()
        nursery.cancel_scope.cancel()
    waiting = ann.session.coming_back
    assert waiting is not None
    assert (waiting.seat, waiting.name, waiting.key, waiting.asked) == (2, "cat", fresh, asked)
    assert bob.session.coming_back is None  # bob does not propose: it kept nothing
    passed = {"en": "cat asks to come back: the request is passed on to ann", "ru": "игроку ann"}
    assert any(passed[lang] in line for line in bob_says.lines), bob_says.lines
    back_asked = {"en": "cat asks to come back: the seat goes back", "ru": "cat просит вернуть"}
    assert any(back_asked[lang] in line for line in ann_says.lines), ann_says.lines
