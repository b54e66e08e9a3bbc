"""Serving the web app from the peer's own trio run (hypercorn's trio worker), on 127.0.0.1."""

from __future__ import annotations

import logging
from pathlib import Path

import trio
from hypercorn.config import Config
from hypercorn.trio import serve

from p2p_dominoes.ui.web.access import PageAccess
from p2p_dominoes.ui.web.app import create_app
from p2p_dominoes.ui.web.hub import Hub


async def serve_page(
    hub: Hub,
    access: PageAccess,
    port: int,
    *,
    lang: str = "en",
    data_dir: Path | None = None,
    task_status: trio.TaskStatus[str] = trio.TASK_STATUS_IGNORED,
) -> None:
    """Serve until cancelled; reports the base URL (`http://127.0.0.1:PORT`) once listening."""
    config = Config()
    config.bind = [f"127.0.0.1:{port}"]
    config.accesslog = None  # request lines would carry the one-time link token
    config.errorlog = logging.getLogger("p2p_dominoes.ui.http")
    config.graceful_timeout = 1.0
    config.include_server_header = False
    config.websocket_max_message_size = 64 * 1024

    class _Status:
        def started(self, urls: list[str] | None = None) -> None:
            base = (urls or [f"http://127.0.0.1:{port}"])[0]
            task_status.started(base.rstrip("/"))

    app = create_app(hub, access, lang, data_dir)
    await serve(app, config, mode="asgi", task_status=_Status())  # type: ignore[arg-type]
