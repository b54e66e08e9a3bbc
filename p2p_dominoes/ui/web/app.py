"""The ASGI app served to this player's own browser: the page, its assets and one WebSocket.

Everything is bound to 127.0.0.1. The Host header must name 127.0.0.1 or localhost at our port
(DNS rebinding), and a WebSocket or a non-GET request must come from our own origin. The link
`play` gives the browser carries a one-time token (`/?token=…`); its first load trades it for
an HttpOnly, SameSite=Strict session cookie and a socket key the page keeps in localStorage,
and moves to `/` (access.py). The page needs that cookie, its WebSocket the cookie and the key;
without them a visitor gets the "open elsewhere" screen (403).
Nothing a client sends gets a 500: bad links get 400, bad commands a `refused` message.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import trio
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.ui.web.access import PageAccess, PageSession, cookie_name, well_formed
from p2p_dominoes.ui.web.hub import Hub, elsewhere
from p2p_dominoes.ui.web.page_session import save_page_session
from p2p_dominoes.ui.web.page_words import words_json
from p2p_dominoes.ui.web.rules_api import rules_routes

log = logging.getLogger("p2p_dominoes.ui.web")
_strangers = StrangerLog(log)

_STATIC = StaticFiles(packages=[("p2p_dominoes.ui.web", "static")])
MAX_COMMAND_BYTES = 4096

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]

_ENTER_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>p2p-dominoes</title>
<meta name="p2p-dominoes-key" content="{key}">
<script src="/static/enter.js"></script></head>
<body><p><a href="/">p2p-dominoes</a></p></body></html>
"""
MALFORMED_LINK = (
    "This link is malformed. Open the address that p2p-dominoes play printed in its window.\n"
)


class Guard:
    """Pure ASGI middleware: Host and Origin checks, and the security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        port = scope["server"][1] if scope.get("server") else None
        headers = Headers(scope=scope)
        host, origin = headers.get("host", ""), headers.get("origin")
        allowed = host in (f"127.0.0.1:{port}", f"localhost:{port}")
        if allowed and (scope["type"] == "websocket" or scope.get("method") not in ("GET", "HEAD")):
            allowed = origin == f"http://{host}"  # no other page's socket, no CSRF
        if not allowed:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})  # the client sees 403
                return
            await PlainTextResponse("Forbidden\n", 403)(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _keep_session(data_dir: Path, port: int, session: PageSession) -> None:
    """Save the page's session for the next run; without it a restart needs a new link."""
    try:
        save_page_session(data_dir, port, session)
    except OSError as exc:
        log.warning("cannot keep the page's session in %s: %s", data_dir, exc.strerror or exc)


def create_app(
    hub: Hub, access: PageAccess, lang: str = "en", data_dir: Path | None = None
) -> ASGIApp:
    """The web app for one player; `access` holds the link token `play` gave them, and
    `data_dir` their saved rule sets (the house-rules editor, rules_api.py)."""
    page = _STATIC.lookup_path("index.html")[0]
    with open(page, encoding="utf-8") as file:
        index_html = file.read().replace('<html lang="en">', f'<html lang="{lang}">', 1)
    elsewhere_html = index_html.replace("<body>", '<body data-screen="elsewhere">', 1)

    def enter_html(key: str) -> str:
        return _ENTER_PAGE.format(lang=lang, key=key)

    def session_cookie(connection: Request | WebSocket) -> str | None:
        server = connection.scope.get("server")
        return connection.cookies.get(cookie_name(server[1])) if server else None

    async def index(request: Request) -> Response:
        tokens = request.query_params.getlist("token")
        admitted = access.admits(session_cookie(request))
        if tokens:
            if len(tokens) != 1 or not well_formed(tokens[0]):
                return PlainTextResponse(MALFORMED_LINK, 400)
            session = access.exchange(tokens[0]) if request.method == "GET" else None
            if session is not None:
                hub.release_all(takeover=False)  # a new session: the old cookie is dead
                if data_dir is not None:  # a restarted `play` admits this tab again
                    _keep_session(data_dir, request.scope["server"][1], session)
                response = HTMLResponse(enter_html(session.key))
                response.set_cookie(
                    cookie_name(request.scope["server"][1]),
                    session.cookie,
                    httponly=True,
                    samesite="strict",
                    path="/",
                )
                return response
            if admitted:  # this browser's own old link (its history): go to the page
                return HTMLResponse(enter_html(""))
        if admitted:
            return HTMLResponse(index_html)
        if tokens:
            client = request.client.host if request.client else "?"
            _strangers.warn(client, "opened the page with a spent or wrong link")
        return HTMLResponse(elsewhere_html, 403)

    async def socket(websocket: WebSocket) -> None:
        try:
            offered = socket_key(websocket.headers.get("sec-websocket-protocol", ""))
            key = offered if offered is not None else websocket.query_params.get("key")
            admitted = access.admits_socket(session_cookie(websocket), key)
            await _serve_socket(websocket, hub, admitted, offered is not None)
        except* (WebSocketDisconnect, trio.BrokenResourceError, trio.ClosedResourceError):
            pass  # the page went away
        except* Exception as failed:  # one page's socket fails alone, never the peer
            log.warning("the page's socket failed: %s", peer_text(_failure_text(failed), 200))

    app = Starlette(
        routes=[
            Route("/", index, methods=["GET"]),
            Route("/words.json", words_json, methods=["GET"]),
            Mount("/static", app=_STATIC),
            WebSocketRoute("/ws", socket),
            *rules_routes(access, data_dir, lang, hub),
        ]
    )
    return Guard(app)


def _failure_text(failed: BaseException) -> str:
    """`Type: message` of what failed, through the exception groups trio wraps it in."""
    while isinstance(failed, BaseExceptionGroup) and len(failed.exceptions) == 1:
        failed = failed.exceptions[0]
    return f"{type(failed).__name__}: {failed}"


SOCKET_PROTOCOL = "p2p-dominoes"
"""The subprotocol a page's socket asks for, with its key as a second one ("key.<key>"): the
key then never appears in the socket's URL, which the browser prints in its console whenever a
connection fails (a peer being restarted; issue 28 L9)."""


def socket_key(protocols: str) -> str | None:
    """The key a page offered among its socket's subprotocols, or None (an older page: the
    key is in the URL's query)."""
    offered = [part.strip() for part in protocols.split(",")]
    if SOCKET_PROTOCOL not in offered:
        return None
    return next((part[4:] for part in offered if part.startswith("key.")), "")


async def _serve_socket(
    websocket: WebSocket, hub: Hub, admitted: bool, by_protocol: bool = False
) -> None:
    tab = websocket.query_params.get("tab", "")
    if not admitted or not well_formed(tab):
        await websocket.close(1008)  # before accepting: the client sees HTTP 403
        return
    await websocket.accept(subprotocol=SOCKET_PROTOCOL if by_protocol else None)
    holder = hub.holder()
    if holder not in (None, tab) and websocket.query_params.get("takeover") != "1":
        await websocket.send_text(json.dumps(elsewhere(takeover=True)))
        await websocket.close(1000)
        return
    pages = hub.subscribe(tab)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_pump, websocket, pages, nursery.cancel_scope)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                command, problem = parse_command(message.get("text"))
                if command is None:
                    hub.tell(pages, {"type": "refused", "text": problem})
                elif hub.holds(pages):
                    hub.command(command)
        finally:
            hub.unsubscribe(pages)
            nursery.cancel_scope.cancel()


def parse_command(text: object) -> tuple[dict[str, Any] | None, str]:
    """A page's message as a command (a JSON object with a string "type"), or None and why not."""
    if not isinstance(text, str):
        return None, "Commands are JSON text, not binary."
    if len(text) > MAX_COMMAND_BYTES or len(text.encode("utf-8", "replace")) > MAX_COMMAND_BYTES:
        return None, "That command is too long."
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # bad JSON, too deep, or a number too long to read
        return None, "That command is not JSON."
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None, 'A command is a JSON object with a "type".'
    return message, ""


async def _pump(
    websocket: WebSocket,
    pages: trio.MemoryReceiveChannel[dict[str, Any]],
    scope: trio.CancelScope,
) -> None:
    try:
        async for message in pages:
            await websocket.send_text(json.dumps(message, ensure_ascii=False))
        await websocket.close(1001)
    except (WebSocketDisconnect, RuntimeError, trio.BrokenResourceError, trio.ClosedResourceError):
        pass
    scope.cancel()
