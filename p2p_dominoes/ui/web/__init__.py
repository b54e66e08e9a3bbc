"""The web UI: a page on 127.0.0.1 that this player's own peer serves (no CDN, no build step)."""

from p2p_dominoes.ui.web.access import PageAccess, PageSession, cookie_name
from p2p_dominoes.ui.web.app import create_app, parse_command
from p2p_dominoes.ui.web.controller import PlayController
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.redirect_file import remove_redirect_file, write_redirect_file
from p2p_dominoes.ui.web.server import serve_page
from p2p_dominoes.ui.web.web_ui import WebUI

__all__ = [
    "Hub",
    "PageAccess",
    "PageSession",
    "PlayController",
    "WebUI",
    "cookie_name",
    "create_app",
    "parse_command",
    "remove_redirect_file",
    "serve_page",
    "write_redirect_file",
]
