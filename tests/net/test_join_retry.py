"""A host without a person given a join code seats only joiners with it. A joiner whose lobby
connection the host drops before any answer and without a word (a flood made the host's
listener make room) asks again, as after `busy`; a host that says why it closes (a bye) or
refuses is final, and its words are quoted and attributed to its peer."""

from __future__ import annotations

import trio

from p2p_dominoes.engine import preset
from p2p_dominoes.net import Connection, PeerFailure, Target, host_table, join_table, open_listener
from p2p_dominoes.net.lobby import Join, Refuse, decode_lobby, encode_lobby
from p2p_dominoes.session import Identity
from tests.net.test_lobby_host import LinesUI, _options, ports  # noqa: F401


async def _host(answers: list[str], joins: list[Join], task_status: trio.TaskStatus[int]) -> None:
    """A host that answers each join in turn: `drop` (no word), `bye` (a bye with words), or a
    refusal code."""

    async def handler(connection: Connection) -> None:
        join = decode_lobby((await connection.receive()).payload[1:])  # type: ignore[union-attr]
        assert isinstance(join, Join)
        joins.append(join)
        answer = answers.pop(0)
        if answer == "drop":
            connection._close_now("closed to make room for newer connections")
        elif answer == "bye":
            await connection.aclose("Connected. Fingerprint OK ✔")
        else:
            await connection.send(encode_lobby(Refuse(answer, "no room, sorry")))
            await connection.aclose(answer)

    listener = await open_listener(interface="127.0.0.1", port=0)
    async with trio.open_nursery() as nursery:
        await nursery.start(listener.serve, Identity.generate(), handler)
        task_status.started(listener.port)


async def _join(answers: list[str]) -> tuple[str, LinesUI, list[Join]]:
    ui, joins = LinesUI(), list[Join]()
    async with trio.open_nursery() as nursery:
        port = await nursery.start(_host, answers, joins)
        target = Target(("127.0.0.1",), port, None, code=bytes([1, 2, 3]))
        failure = ""
        try:
            with trio.fail_after(20):
                await join_table(_options("bob", ui), target)
        except* PeerFailure as group:
            leaf: BaseException = group
            while isinstance(leaf, BaseExceptionGroup):
                leaf = leaf.exceptions[0]
            failure = str(leaf)
        nursery.cancel_scope.cancel()
    return failure, ui, joins


async def test_a_join_dropped_without_a_word_is_asked_again() -> None:
    failure, ui, joins = await _join(["drop", "full"])
    assert len(joins) == 2 and all(j.code == bytes([1, 2, 3]) for j in joins)  # same code again
    await ui.heard("The host is busy (it dropped the connection before answering); asking again")
    assert failure.startswith("no seat [full]: the table is full (the host's peer (")
    assert failure.endswith(" says: “no room, sorry”)")


async def test_a_host_that_says_bye_is_final_and_its_words_are_quoted() -> None:
    failure, _, joins = await _join(["bye"])
    assert len(joins) == 1
    assert failure.startswith("the host closed the connection (the host's peer (")
    assert failure.endswith(" says: “Connected. Fingerprint OK ✔”)")


async def test_a_hosts_busy_words_are_quoted() -> None:
    failure, ui, joins = await _join(["busy", "refused"])
    assert len(joins) == 2
    await ui.heard("The host is busy (“no room, sorry”); asking again")
    assert failure.startswith("no seat [refused]")


async def test_a_host_without_a_person_given_a_code_seats_only_joiners_with_it(
    ports: list[int],  # noqa: F811
) -> None:
    """`host --ui none --code WORDS`: nobody is asked; a joiner without the code (or with
    another) is refused `code` with one clear line, one with it is seated and plays."""
    code = bytes([9, 8, 7])
    host = _options("host", LinesUI())
    statuses: dict[str, int] = {}
    failures: dict[str, str] = {}

    async def run_host() -> None:
        statuses["host"] = await host_table(
            host, table_name="t", rules=preset("draw"), players=2, bots=0,
            bot_strategy="random", hands=1, desk=None, join_code=code,
        )  # fmt: skip

    async def run_join(name: str, given: bytes | None) -> None:
        target = Target(("127.0.0.1",), ports[0], host.identity.public, code=given)
        try:
            statuses[name] = await join_table(_options(name, LinesUI()), target)
        except* PeerFailure as group:
            failures[name] = str(group.exceptions[0])

    with trio.fail_after(90):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(run_host)
            while not ports:
                await trio.sleep(0.02)
            await run_join("eve", None)
            await run_join("mallory", bytes([9, 8, 6]))
            await run_join("bob", code)
    assert statuses == {"host": 0, "bob": 0}, (statuses, failures)
    assert set(failures) == {"eve", "mallory"}
    assert failures["eve"].startswith("no seat [code]: the table needs its join code")
    assert failures["eve"].endswith("says: “this table needs its join code: ask the host for it”)")
    assert failures["mallory"].endswith("says: “that is not this table's join code”)")
