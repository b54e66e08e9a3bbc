"""The page server lets in only this player's browser: the one-time link, then its cookie.

The server runs in the test's trio run; the clients (plain sockets and wsproto, page_client.py)
run in threads, so they can send anything a local program can: any Host, Origin, cookie, frame.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import pytest
import trio

from p2p_dominoes.ui.web import Hub, PageAccess, cookie_name, serve_page
from tests.ui.page_client import (
    Login,
    PageSocket,
    Reply,
    http_get,
    log_in,
    page_key,
    session_cookie,
)

T = TypeVar("T")
STATE = {"type": "state", "screen": "lobby", "secret": "your hidden tiles"}


async def off_loop(call: Callable[[], T]) -> T:
    return await trio.to_thread.run_sync(call)


@asynccontextmanager
async def page_server(access: PageAccess) -> AsyncIterator[tuple[Hub, int]]:
    hub = Hub()
    hub.publish(STATE, snapshot=True)
    async with trio.open_nursery() as nursery:
        base = await nursery.start(serve_page, hub, access, 0)
        yield hub, int(base.rsplit(":", 1)[1])
        nursery.cancel_scope.cancel()


def socket_status(port: int, **kwargs: Any) -> int:
    with PageSocket(port, **kwargs) as sock:
        return sock.status


async def enter(port: int, token: str) -> Login:
    """Open the one-time link: the session cookie (`name=value`) and the page's socket key."""
    return await off_loop(lambda: log_in(port, token))


async def test_the_one_time_link_is_traded_for_a_strict_httponly_cookie_named_by_port() -> None:
    access = PageAccess()
    token = access.link_token
    assert token is not None
    async with page_server(access) as (_, port):
        first = await off_loop(lambda: http_get(port, f"/?token={token}"))
        assert first.status == 200
        set_cookie = first.header("set-cookie") or ""
        assert set_cookie.startswith(f"{cookie_name(port)}=")
        attributes = {part.strip().lower() for part in set_cookie.split(";")[1:]}
        assert {"httponly", "samesite=strict", "path=/"} <= attributes
        assert "/static/enter.js" in first.body  # which moves the browser on to "/"
        assert token not in first.body
        cookie = session_cookie(first)
        assert len(page_key(first)) >= 43  # the socket key, for the page's localStorage

        page = await off_loop(lambda: http_get(port, "/", cookie=cookie))
        assert page.status == 200 and 'id="lobby"' in page.body
        assert 'data-screen="elsewhere"' not in page.body

        # The link is spent: a copy of it (another browser, another user) gets "open
        # elsewhere"; this browser, which has the cookie, is sent on to its page.
        stolen = await off_loop(lambda: http_get(port, f"/?token={token}"))
        assert stolen.status == 403 and 'data-screen="elsewhere"' in stolen.body
        assert stolen.header("set-cookie") is None
        again = await off_loop(lambda: http_get(port, f"/?token={token}", cookie=cookie))
        assert again.status == 200 and again.header("set-cookie") is None
        assert page_key(first) not in again.body
        bare = await off_loop(lambda: http_get(port, "/"))
        assert bare.status == 403 and 'data-screen="elsewhere"' in bare.body

        # Another peer's cookie (another port) opens nothing here.
        other = cookie.replace(cookie_name(port), cookie_name(port + 1), 1)
        assert (await off_loop(lambda: http_get(port, "/", cookie=other))).status == 403


async def test_malformed_links_and_cookies_get_400_or_403_never_500() -> None:
    access = PageAccess()
    async with page_server(access) as (_, port):
        login = await enter(port, str(access.link_token))
        malformed = [
            "/?token=%C3%A9t%C3%A9",  # non-ASCII
            "/?token=\u00e9t\u00e9",  # raw UTF-8 bytes in the request line
            "/?token=%FF%FE",  # not UTF-8 at all
            "/?token=" + "a" * 129,  # overlong
            "/?token=" + "a" * 5000,
            "/?token=",  # missing
            "/?token",
            "/?token=a&token=b",
            "/?token=a%00b",
            "/?token=abc%",
        ]
        for target in malformed:
            reply = await off_loop(lambda target=target: http_get(port, target))
            assert reply.status == 400, (target, reply)
            assert "Traceback" not in reply.body
            if target.isascii():  # (raw bytes: h11 itself answers an empty 400)
                assert "malformed" in reply.body, (target, reply)
        cookies = [
            f"{cookie_name(port)}=\u00e9\u00e9",
            f"{cookie_name(port)}=" + "a" * 5000,
            f"{cookie_name(port)}=",
            f'{cookie_name(port)}="\\x\\y"',
            ";;;==;=",
            "\u00ff\u00fe",
            f"{cookie_name(port)}",
        ]
        for bad in cookies:
            page = await off_loop(lambda bad=bad: http_get(port, "/", cookie=bad))
            assert page.status == 403, (bad, page)
            status = await off_loop(lambda bad=bad: socket_status(port, cookie=bad, key=login.key))
            assert status == 403, bad
        for key in ["%C3%A9", "%FF", "k" * 300, "", login.key[:-1], login.cookie.split("=", 1)[1]]:
            status = await off_loop(
                lambda key=key: socket_status(port, cookie=login.cookie, key=key)
            )
            assert status == 403, key
        # None of that disturbed the real session.
        assert (await off_loop(lambda: http_get(port, "/", cookie=login.cookie))).status == 200
        assert (
            await off_loop(lambda: socket_status(port, cookie=login.cookie, key=login.key)) == 101
        )


async def test_the_socket_needs_our_host_our_origin_and_the_cookie() -> None:
    access = PageAccess()
    async with page_server(access) as (_, port):
        own = f"http://127.0.0.1:{port}"
        login = await enter(port, str(access.link_token))
        cookie = login.cookie

        def status(**kwargs: Any) -> int:
            return socket_status(port, **{"key": login.key, **kwargs})

        assert await off_loop(lambda: status(cookie=None)) == 403
        # The cookie alone, as a server on another local port would see it: not enough.
        assert await off_loop(lambda: status(cookie=cookie, key=None)) == 403
        assert await off_loop(lambda: status(cookie=cookie, origin="http://evil.example")) == 403
        assert await off_loop(lambda: status(cookie=cookie, origin=None)) == 403
        assert await off_loop(lambda: status(cookie=cookie, origin="null")) == 403
        assert await off_loop(lambda: status(cookie=cookie, origin="http://127.0.0.1:1")) == 403
        evil_host = f"evil.example:{port}"
        assert (
            await off_loop(
                lambda: status(cookie=cookie, host=evil_host, origin=f"http://{evil_host}")
            )
            == 403
        )
        bad_tab = f"tab=%C3%A9&key={login.key}"
        assert await off_loop(lambda: status(cookie=cookie, query=bad_tab)) == 403
        long_tab = "tab=" + "x" * 200 + f"&key={login.key}"
        assert await off_loop(lambda: status(cookie=cookie, query=long_tab)) == 403
        assert await off_loop(lambda: status(cookie=cookie, origin=own)) == 101

        def plain(target: str, **kwargs: Any) -> Reply:
            return http_get(port, target, **kwargs)

        rebinding = await off_loop(lambda: plain("/", host=f"evil.example:{port}"))
        assert rebinding.status == 403
        traversal = await off_loop(lambda: plain("/static/../controller.py"))
        assert traversal.status == 404
        post = await off_loop(lambda: plain("/", method="POST", origin="http://evil.example"))
        assert post.status == 403
        assert "default-src 'none'" in (
            (await off_loop(lambda: plain("/", cookie=cookie))).header("content-security-policy")
            or ""
        )


async def test_one_tab_holds_the_session_and_another_takes_it_over() -> None:
    access = PageAccess()
    async with page_server(access) as (hub, port):
        login = await enter(port, str(access.link_token))
        cookie, key = login.cookie, login.key

        def scenario() -> None:
            first = PageSocket(port, cookie=cookie, key=key, tab="first")
            assert first.receive() == STATE
            # A second tab gets "open elsewhere" (with the offer to take over) and no state.
            with PageSocket(port, cookie=cookie, key=key, tab="second") as second:
                assert second.receive() == {"type": "elsewhere", "takeover": True}
                assert second.receive() is None
            # "Use it here": the second tab gets the state, the first is told and closed.
            second = PageSocket(port, cookie=cookie, key=key, tab="second", takeover=True)
            assert second.receive() == STATE
            assert first.receive() == {"type": "elsewhere", "takeover": True}
            assert first.receive() is None and first.closed == 1001
            first.close()
            # A reload of the holding tab (same tab id) takes the session back at once.
            reloaded = PageSocket(port, cookie=cookie, key=key, tab="second")
            assert reloaded.receive() == STATE
            assert second.receive() == {"type": "elsewhere", "takeover": True}
            second.close()
            reloaded.close()

        await off_loop(scenario)
        assert hub.holder() in (None, "second")


async def test_a_new_link_ends_the_old_session() -> None:
    access = PageAccess()
    async with page_server(access) as (_, port):
        old = await enter(port, str(access.link_token))

        def scenario() -> None:
            holder = PageSocket(port, cookie=old.cookie, key=old.key, tab="old")
            assert holder.receive() == STATE
            fresh = access.new_link()  # Enter pressed in play's window
            new = log_in(port, fresh)
            assert holder.receive() == {"type": "elsewhere", "takeover": False}
            holder.close()
            assert http_get(port, "/", cookie=old.cookie).status == 403
            with PageSocket(port, cookie=old.cookie, key=old.key, tab="old") as stale:
                assert stale.status == 403
            with PageSocket(port, cookie=new.cookie, key=old.key, tab="new") as mixed:
                assert mixed.status == 403
            with PageSocket(port, cookie=new.cookie, key=new.key, tab="new") as current:
                assert current.receive() == STATE

        await off_loop(scenario)


async def test_a_bug_while_handling_a_page_command_closes_that_socket_only(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An unexpected exception inside one socket's handler: logged, that socket closed, the
    page server and the next socket unharmed."""
    access = PageAccess()
    async with page_server(access) as (hub, port):
        login = await enter(port, str(access.link_token))
        commands: list[dict[str, Any]] = []

        def buggy_command(command: dict[str, Any]) -> None:
            commands.append(command)
            if len(commands) == 1:
                raise RuntimeError("a bug in the application")

        hub.command = buggy_command  # type: ignore[method-assign]

        def scenario() -> None:
            with PageSocket(port, cookie=login.cookie, key=login.key, tab="one") as first:
                assert first.receive() == STATE
                first.send_json({"type": "draw"})
                assert first.receive() is None  # the handler failed: this socket is closed
            with PageSocket(port, cookie=login.cookie, key=login.key, tab="one") as again:
                assert again.receive() == STATE
                again.send_json({"type": "draw"})
            assert http_get(port, "/", cookie=login.cookie).status == 200

        with caplog.at_level("WARNING", logger="p2p_dominoes.ui.web"):
            await off_loop(scenario)
            with trio.fail_after(5):
                while len(commands) < 2:
                    await trio.sleep(0.01)
    assert "the page's socket failed: RuntimeError: a bug in the application" in caplog.text
    assert commands == [{"type": "draw"}, {"type": "draw"}]
