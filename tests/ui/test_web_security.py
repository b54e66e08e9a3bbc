"""The page server refuses what is not our own page: no token, a wrong Host, another origin."""

from __future__ import annotations

import base64
import os

import trio

from p2p_dominoes.ui.web import Hub, serve_page

TOKEN = "secret-token-for-tests"


async def request(port: int, text: str) -> str:
    stream = await trio.open_tcp_stream("127.0.0.1", port)
    async with stream:
        await stream.send_all(text.encode())
        data = b""
        with trio.move_on_after(3):
            while b"\r\n\r\n" not in data:
                chunk = await stream.receive_some(4096)
                if not chunk:
                    break
                data += chunk
    return data.decode("latin-1")


def upgrade(port: int, *, token: str | None, origin: str | None, host: str | None = None) -> str:
    key = base64.b64encode(os.urandom(16)).decode()
    path = "/ws" + (f"?token={token}" if token is not None else "")
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: {host or f'127.0.0.1:{port}'}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    return "\r\n".join(lines) + "\r\n\r\n"


async def test_the_page_server_checks_host_origin_and_token() -> None:
    hub = Hub()
    async with trio.open_nursery() as nursery:
        base = await nursery.start(serve_page, hub, TOKEN, 0)
        port = int(base.rsplit(":", 1)[1])
        own = f"http://127.0.0.1:{port}"

        page = await request(port, f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n")
        assert page.startswith("HTTP/1.1 200")
        assert "content-security-policy: default-src 'none'" in page.lower()
        rebinding = await request(port, f"GET / HTTP/1.1\r\nHost: evil.example:{port}\r\n\r\n")
        assert rebinding.startswith("HTTP/1.1 403")
        traversal = await request(
            port, f"GET /static/../controller.py HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
        )
        assert traversal.startswith("HTTP/1.1 404")
        post = await request(
            port,
            f"POST / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n"
            "Content-Length: 0\r\n\r\n",
        )
        assert post.startswith("HTTP/1.1 403")

        assert (await request(port, upgrade(port, token=None, origin=own))).startswith(
            "HTTP/1.1 403"
        )
        wrong = await request(port, upgrade(port, token="guess", origin=own))
        assert wrong.startswith("HTTP/1.1 403")
        cross = await request(port, upgrade(port, token=TOKEN, origin="http://evil.example"))
        assert cross.startswith("HTTP/1.1 403")
        no_origin = await request(port, upgrade(port, token=TOKEN, origin=None))
        assert no_origin.startswith("HTTP/1.1 403")
        other_port = await request(port, upgrade(port, token=TOKEN, origin="http://127.0.0.1:1"))
        assert other_port.startswith("HTTP/1.1 403")
        ours = await request(port, upgrade(port, token=TOKEN, origin=own))
        assert ours.startswith("HTTP/1.1 101")
        nursery.cancel_scope.cancel()
