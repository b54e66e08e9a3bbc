"""The ASGI app served to this player's own browser: the page, its assets and one WebSocket.

Everything is bound to 127.0.0.1. A random token in the URL fragment (never sent over HTTP)
opens the WebSocket; the Host header must name 127.0.0.1 or localhost at our port (DNS
rebinding), and a WebSocket or a non-GET request must come from our own origin.
"""

from __future__ import annotations

import json
import secrets
from typing import Any
from urllib.parse import parse_qs

import trio
from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.responses import FileResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from p2p_dominoes.ui.web.hub import Hub

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


class Guard:
    """Pure ASGI middleware: Host and Origin checks, and the token for the WebSocket."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        port = scope["server"][1] if scope.get("server") else None
        headers = Headers(scope=scope)
        host, origin = headers.get("host", ""), headers.get("origin")
        allowed = host in (f"127.0.0.1:{port}", f"localhost:{port}")
        if allowed and scope["type"] == "websocket":
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            token = query.get("token", [""])[0]
            allowed = origin == f"http://{host}" and secrets.compare_digest(token, self.token)
        elif allowed and scope.get("method") not in ("GET", "HEAD"):
            allowed = origin == f"http://{host}"
        if not allowed:
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
                return
            await PlainTextResponse("Forbidden", 403)(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def create_app(hub: Hub, token: str) -> ASGIApp:
    """The web app for one player; `token` must match the one in the URL given to them."""

    async def index(request: Any) -> FileResponse:
        path = _STATIC.lookup_path("index.html")[0]
        return FileResponse(path, media_type="text/html; charset=utf-8")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        pages = hub.subscribe()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(_pump, websocket, pages, nursery.cancel_scope)
            try:
                while True:
                    text = await websocket.receive_text()
                    if len(text) > MAX_COMMAND_BYTES:
                        continue
                    try:
                        message = json.loads(text)
                    except json.JSONDecodeError:
                        continue
                    if isinstance(message, dict) and isinstance(message.get("type"), str):
                        hub.command(message)
            except (WebSocketDisconnect, KeyError, RuntimeError):
                pass
            finally:
                hub.unsubscribe(pages)
                nursery.cancel_scope.cancel()

    app = Starlette(
        routes=[
            Route("/", index),
            Mount("/static", app=_STATIC),
            WebSocketRoute("/ws", socket),
        ]
    )
    return Guard(app, token)


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
