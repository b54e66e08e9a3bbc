"""A plain HTTP and WebSocket client for the page server (blocking sockets and wsproto): what a
local program, not a browser, can send to the page — any Host, Origin, cookie or frame."""

from __future__ import annotations

import contextlib
import json
import re
import socket
from dataclasses import dataclass
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    Message,
    Ping,
    RejectConnection,
    Request,
    TextMessage,
)


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]
    body: str

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key == name.lower():
                return value
        return None


def http_get(
    port: int,
    target: str = "/",
    *,
    host: str | None = None,
    cookie: str | None = None,
    origin: str | None = None,
    method: str = "GET",
    raw_headers: bytes = b"",
    body: bytes = b"",
    timeout: float = 10,
) -> Reply:
    """One request, `Connection: close`; the target, headers and body go out as given."""
    lines = [
        f"{method} {target} HTTP/1.1".encode("utf-8", "surrogateescape"),
        f"Host: {host or f'127.0.0.1:{port}'}".encode("utf-8", "surrogateescape"),
        b"Connection: close",
    ]
    if cookie is not None:
        lines.append(b"Cookie: " + cookie.encode("utf-8", "surrogateescape"))
    if origin is not None:
        lines.append(b"Origin: " + origin.encode())
    if method == "POST":
        lines.append(f"Content-Length: {len(body)}".encode())
    request = b"\r\n".join(lines) + b"\r\n" + raw_headers + b"\r\n" + body
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = []
    for line in header_lines:
        key, _, value = line.partition(":")
        headers.append((key.strip().lower(), value.strip()))
    return Reply(int(status_line.split()[1]), headers, body.decode("utf-8", "replace"))


def session_cookie(reply: Reply) -> str:
    """`name=value` of the cookie a reply sets (for the Cookie header of later requests)."""
    value = reply.header("set-cookie")
    assert value, reply
    return value.split(";", 1)[0]


def page_key(reply: Reply) -> str:
    """The socket key that the first load of the link hands the page (for its localStorage)."""
    found = re.search(r'<meta name="p2p-dominoes-key" content="([^"]*)">', reply.body)
    assert found and found.group(1), reply
    return found.group(1)


@dataclass
class Login:
    """What a browser holds after opening the link: the cookie and the page's socket key."""

    cookie: str
    key: str


def log_in(port: int, token: str) -> Login:
    reply = http_get(port, f"/?token={token}")
    assert reply.status == 200, reply
    return Login(session_cookie(reply), page_key(reply))


class PageSocket:
    """A WebSocket to the page server; `status` is 101 or the HTTP status of the refusal."""

    def __init__(
        self,
        port: int,
        *,
        cookie: str | None,
        key: str | None = None,
        tab: str = "tab-one",
        takeover: bool = False,
        origin: str | None = "",
        host: str | None = None,
        query: str | None = None,
        timeout: float = 10,
    ) -> None:
        self.connection = WSConnection(ConnectionType.CLIENT)
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.closed: int | None = None
        self._pending: list[Any] = []
        self._text = ""
        headers: list[tuple[bytes, bytes]] = []
        own = f"http://127.0.0.1:{port}"
        if origin is not None:
            headers.append((b"origin", (origin or own).encode()))
        if cookie is not None:
            headers.append((b"cookie", cookie.encode("utf-8", "surrogateescape")))
        if query is None:
            query = f"tab={tab}" + (f"&key={key}" if key is not None else "")
            query += "&takeover=1" if takeover else ""
        target = "/ws?" + query
        self.sock.sendall(
            self.connection.send(
                Request(host=host or f"127.0.0.1:{port}", target=target, extra_headers=headers)
            )
        )
        self.status = 0
        while not self.status:
            for event in self._events():
                if isinstance(event, AcceptConnection):
                    self.status = 101
                elif isinstance(event, RejectConnection):
                    self.status = event.status_code
                    self.closed = event.status_code
                else:
                    self._pending.append(event)

    def _events(self) -> list[Any]:
        data = self.sock.recv(65536)
        self.connection.receive_data(data or None)
        return list(self.connection.events())

    def send_text(self, text: str) -> None:
        self.sock.sendall(self.connection.send(Message(data=text)))

    def send_bytes(self, data: bytes) -> None:
        self.sock.sendall(self.connection.send(Message(data=data)))

    def send_json(self, value: Any) -> None:
        self.send_text(json.dumps(value))

    def receive(self) -> dict[str, Any] | None:
        """The next JSON message, or None once the server has closed (code in `closed`)."""
        while True:
            while self._pending:
                event = self._pending.pop(0)
                if isinstance(event, TextMessage):
                    self._text += event.data
                    if event.message_finished:
                        text, self._text = self._text, ""
                        message: dict[str, Any] = json.loads(text)
                        return message
                elif isinstance(event, CloseConnection):
                    self.closed = event.code
                    with contextlib.suppress(Exception):  # the peer may be gone already
                        self.sock.sendall(self.connection.send(event.response()))
                    return None
                elif isinstance(event, Ping):
                    self.sock.sendall(self.connection.send(event.response()))
                elif isinstance(event, BytesMessage):
                    continue
            if self.closed is not None:
                return None
            try:
                events = self._events()
            except OSError:
                self.closed = 1006
                return None
            if not events and self.connection.state.name == "CLOSED":
                self.closed = self.closed or 1006
                return None
            self._pending.extend(events)

    def receive_until(self, kind: str) -> dict[str, Any]:
        """Skip messages until one of type `kind` (fails if the socket closes first)."""
        while True:
            message = self.receive()
            assert message is not None, f"closed ({self.closed}) before a {kind!r} message"
            if message.get("type") == kind:
                return message

    def close(self) -> None:
        with contextlib.suppress(Exception):
            if self.closed is None and self.status == 101:
                self.sock.sendall(self.connection.send(CloseConnection(code=1000)))
        self.sock.close()

    def __enter__(self) -> PageSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
