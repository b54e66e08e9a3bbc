"""The web UI: a page on 127.0.0.1 that this player's own peer serves (no CDN, no build step)."""

from p2p_dominoes.ui.web.app import create_app
from p2p_dominoes.ui.web.controller import PlayController, WebUI
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.server import serve_page

__all__ = ["Hub", "PlayController", "WebUI", "create_app", "serve_page"]
