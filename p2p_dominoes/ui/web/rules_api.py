"""The house-rules editor's page and its JSON routes, served by the player's own peer.

`/rules` is the editor (static/rules.html); `/rules/api/*` answer it. Every check is the
engine's: a draft goes to `check_rules` here, never to a second implementation in the page.
The page needs the session cookie (like `/`); every route under `/rules/api/` needs the cookie
and the page's key (the one its WebSocket uses, sent as the `X-Page-Key` header), and the Guard
in app.py has already checked Host and Origin. Bad input gets a 4xx with the reason in both
languages, never a 500.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.staticfiles import StaticFiles

from p2p_dominoes.engine import InvalidRecord
from p2p_dominoes.engine.rules import PRESETS, draft_of
from p2p_dominoes.engine.rules_check import Finding, check_rules
from p2p_dominoes.engine.rules_page import segments
from p2p_dominoes.store.rule_sets import (
    RuleSetError,
    delete_rule_set,
    list_rule_sets,
    load_draft,
    save_rule_set,
)
from p2p_dominoes.ui.rules_form import current_words, form
from p2p_dominoes.ui.web.access import PageAccess, cookie_name
from p2p_dominoes.ui.web.hub import Hub
from p2p_dominoes.ui.web.lobby_rules import preset_words
from p2p_dominoes.words import line

log = logging.getLogger("p2p_dominoes.ui.web")

KEY_HEADER: Final = "x-page-key"
MAX_BODY_BYTES: Final = 32 * 1024
_Handler = Callable[[Request], Awaitable[Response]]

_CLOSED_PAGE = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><title>p2p-dominoes</title></head>
<body><p lang="en">{en}</p>
<p lang="ru">{ru}</p>
</body></html>
"""


def _closed_page(lang: str) -> str:
    """The page a request with no session gets: in both languages (it cannot know the player's)."""
    said = {name: line("page.rules_api.closed", name) for name in ("en", "ru")}
    return _CLOSED_PAGE.format(lang=lang, **said)


PROBLEMS: Final[Mapping[str, str]] = {
    "forbidden": "page.rules_api.forbidden",
    "body": "page.rules_api.body",
    "rules": "page.rules_api.rules",
    "name": "page.rules_api.name",
    "missing": "page.rules_api.missing",
    "invalid": "page.rules_api.invalid",
    "conflict": "page.rules_api.conflict",
    "io": "page.rules_api.io",
    "no_data": "page.rules_api.no_data",
}
"""Each refusal's code and the catalogue key of its words (``page.rules_api.*``)."""


def _problem(code: str, status: int, detail: str = "", **extra: Any) -> JSONResponse:
    key = PROBLEMS[code]
    text = {lang: f"{line(key, lang)} {detail}".strip() for lang in ("en", "ru")}
    return JSONResponse({"problem": {"code": code, "text": text}, **extra}, status)


def finding_json(finding: Finding) -> dict[str, Any]:
    """A finding for the page: kind, code, the fields to highlight, counts, ru/en text."""
    return {
        "kind": finding.kind,
        "code": finding.code,
        "fields": list(finding.fields),
        "players": list(finding.players),
        "greyed": finding.greyed,
        "text": {"ru": finding.text["ru"], "en": finding.text["en"]},
    }


def checked(data: object) -> dict[str, Any]:
    """A rules object (any rules-file form) as a full draft with its findings; InvalidRecord
    when it is not a rules object at all (a wrong type or value, an unknown field)."""
    draft = draft_of(data)
    findings = [finding_json(f) for f in check_rules(draft)]
    return {
        "draft": draft,
        "findings": findings,
        "playable": not any(f["kind"] == "conflict" for f in findings),
        "current": current_words(draft),
    }


SETS_CHANGED: Final = {"type": "rule_sets"}
"""The command that tells the controller the saved sets changed (it republishes the lobby)."""


def rules_routes(
    access: PageAccess, data_dir: Path | None, lang: str, hub: Hub | None = None
) -> list[BaseRoute]:
    """The editor's page and JSON routes, for `create_app` to mount; `hub` hears of every save
    and delete, so the create-table form offers the sets as they are."""
    static = StaticFiles(packages=[("p2p_dominoes.ui.web", "static")])
    with open(static.lookup_path("rules.html")[0], encoding="utf-8") as file:
        page_html = file.read().replace('<html lang="en">', f'<html lang="{lang}">', 1)

    def cookie_of(request: Request) -> str | None:
        server = request.scope.get("server")
        return request.cookies.get(cookie_name(server[1])) if server else None

    async def page(request: Request) -> Response:
        if not access.admits(cookie_of(request)):
            return HTMLResponse(_closed_page(lang), 403)
        return HTMLResponse(page_html)

    def api(handler: _Handler) -> _Handler:
        async def guarded(request: Request) -> Response:
            if not access.admits_socket(cookie_of(request), request.headers.get(KEY_HEADER)):
                return _problem("forbidden", 403)
            try:
                return await handler(request)
            except Exception as exc:  # the page is untrusted input: never a 500
                log.warning("a rules request failed: %s: %s", type(exc).__name__, exc)
                return _problem("body", 400)

        return guarded

    async def body(request: Request) -> dict[str, Any] | None:
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_BODY_BYTES:
                return None
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return None
        return value if isinstance(value, dict) else None

    def sets() -> dict[str, Any]:
        saved: list[str] = []
        if data_dir is not None:
            try:
                saved = list_rule_sets(data_dir)
            except RuleSetError as exc:
                log.warning("%s", exc)
        return {
            "presets": list(PRESETS),
            "preset_words": preset_words(),  # the lobby's names too (lobby_rules)
            "saved": saved,
            "can_save": data_dir is not None,
        }

    async def get_form(request: Request) -> Response:
        return JSONResponse({**form(), **sets()})

    async def get_sets(request: Request) -> Response:
        return JSONResponse(sets())

    async def open_set(request: Request) -> Response:
        message = await body(request)
        if message is None or not isinstance(message.get("name"), str):
            return _problem("body", 400)
        name = message["name"]
        if name in PRESETS:
            return JSONResponse({**checked(name), "saved": False, "name": name})
        if data_dir is None:
            return _problem("missing", 404)
        try:
            draft = load_draft(data_dir, name)
        except RuleSetError as exc:
            status = 404 if exc.problem in ("missing", "name") else 400
            return _problem("missing" if exc.problem == "name" else exc.problem, status, str(exc))
        return JSONResponse({**checked(draft), "saved": True, "name": name})

    async def check(request: Request) -> Response:
        message = await body(request)
        if message is None or "rules" not in message:
            return _problem("body", 400)
        try:
            return JSONResponse(checked(message["rules"]))
        except InvalidRecord as exc:
            return _problem("rules", 400, str(exc))

    async def screen(request: Request) -> Response:
        message = await body(request)
        page_lang = message.get("lang") if message is not None else None
        if message is None or "rules" not in message or page_lang not in ("en", "ru"):
            return _problem("body", 400)
        try:
            draft = draft_of(message["rules"])
        except InvalidRecord as exc:
            return _problem("rules", 400, str(exc))
        return JSONResponse(
            {
                "segments": [
                    {"text": s.text, "field": s.field, "value": s.value, "greyed": s.greyed}
                    for s in segments(draft, page_lang)
                ]
            }
        )

    async def save(request: Request) -> Response:
        message = await body(request)
        if message is None or "rules" not in message:
            return _problem("body", 400)
        if data_dir is None:
            return _problem("no_data", 409)
        name = message.get("name")
        try:
            result = checked(message["rules"])
        except InvalidRecord as exc:
            return _problem("rules", 400, str(exc))
        try:
            save_rule_set(data_dir, name, result["draft"])  # type: ignore[arg-type]
        except RuleSetError as exc:
            if exc.problem == "conflict":
                return _problem("conflict", 409, findings=result["findings"])
            status = 400 if exc.problem in ("name", "invalid") else 503
            detail = "" if exc.problem == "name" else str(exc)
            return _problem(exc.problem, status, detail)
        if hub is not None:
            hub.command(dict(SETS_CHANGED))
        return JSONResponse({"name": name, **sets()})

    async def delete(request: Request) -> Response:
        message = await body(request)
        if message is None:
            return _problem("body", 400)
        if data_dir is None:
            return _problem("missing", 404)
        try:
            delete_rule_set(data_dir, message.get("name"))  # type: ignore[arg-type]
        except RuleSetError as exc:
            status = 404 if exc.problem in ("missing", "name") else 503
            return _problem("missing" if exc.problem == "name" else exc.problem, status)
        if hub is not None:
            hub.command(dict(SETS_CHANGED))
        return JSONResponse(sets())

    return [
        Route("/rules", page, methods=["GET"]),
        Route("/rules/api/form", api(get_form), methods=["GET"]),
        Route("/rules/api/sets", api(get_sets), methods=["GET"]),
        Route("/rules/api/open", api(open_set), methods=["POST"]),
        Route("/rules/api/check", api(check), methods=["POST"]),
        Route("/rules/api/screen", api(screen), methods=["POST"]),
        Route("/rules/api/save", api(save), methods=["POST"]),
        Route("/rules/api/delete", api(delete), methods=["POST"]),
    ]
