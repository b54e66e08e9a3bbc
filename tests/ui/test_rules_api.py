"""The house-rules editor's routes over real HTTP: the peer checks every draft with the engine's
own checker, saves only sets it can play, and answers only this player's page (cookie + key)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import trio

from p2p_dominoes.engine.rules_page import plain_page
from p2p_dominoes.store import list_rule_sets, load_rule_set, save_rule_set
from p2p_dominoes.ui.rules_form import CONTROLS, editable_fields
from p2p_dominoes.ui.web import Hub, PageAccess, serve_page
from p2p_dominoes.ui.web.page_commands import host_settings
from tests.ui.page_client import Login, Reply, http_get, log_in

T = TypeVar("T")


async def off_loop(call: Callable[[], T]) -> T:
    return await trio.to_thread.run_sync(call)


@asynccontextmanager
async def rules_server(data: Path | None) -> AsyncIterator[tuple[int, Login]]:
    """A page server with the editor, and a browser's login to it (cookie and key)."""
    access = PageAccess()
    token = access.link_token
    assert token is not None
    async with trio.open_nursery() as nursery:
        base = await nursery.start(
            lambda task_status: serve_page(Hub(), access, 0, data_dir=data, task_status=task_status)
        )
        port = int(base.rsplit(":", 1)[1])
        login = await off_loop(lambda: log_in(port, token))
        yield port, login
        nursery.cancel_scope.cancel()


def ask(port: int, login: Login | None, path: str, body: Any = None, **kw: Any) -> Reply:
    """The page's fetch: its cookie, its key header, its own Origin on a POST."""
    headers = b""
    if login is not None:
        headers += f"X-Page-Key: {kw.pop('key', login.key)}\r\n".encode()
    if body is not None:
        headers += b"Content-Type: application/json\r\n"
    raw = (
        body if isinstance(body, bytes) else json.dumps(body).encode() if body is not None else b""
    )
    return http_get(
        port,
        path,
        cookie=login.cookie if login is not None else None,
        origin=f"http://127.0.0.1:{port}" if body is not None else None,
        method="POST" if body is not None else "GET",
        raw_headers=headers,
        body=raw,
        **kw,
    )


def answer(reply: Reply) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(reply.body)
    return value


async def test_a_conflict_is_named_on_both_switches_in_both_languages(tmp_path: Path) -> None:
    async with rules_server(tmp_path) as (port, login):
        clash = {"base": "house", "layout": "cross", "doubles": "along"}
        reply = await off_loop(lambda: ask(port, login, "/rules/api/check", {"rules": clash}))
        assert reply.status == 200
        result = answer(reply)
        assert result["playable"] is False
        [conflict] = [f for f in result["findings"] if f["kind"] == "conflict"]
        assert conflict["code"] == "K3" and conflict["fields"] == ["layout", "doubles"]
        assert "crosswise" in conflict["text"]["en"] and "поперёк" in conflict["text"]["ru"]
        assert result["draft"]["layout"] == "cross" and result["draft"]["doubles"] == "along"
        # A conflict at one player count only: eight each do not fit four players.
        eight = {**result["draft"], "doubles": "across", "hand_sizes": [[2, 7], [3, 7], [4, 8]]}
        four = answer(
            await off_loop(lambda: ask(port, login, "/rules/api/check", {"rules": eight}))
        )
        [conflict] = [f for f in four["findings"] if f["kind"] == "conflict"]
        assert conflict["players"] == [4] and "for 4 players" in conflict["text"]["en"]
        # Fixed: two or three players only.
        fixed = {**eight, "hand_sizes": [[2, 7], [3, 7]], "targets": [[2, 101], [3, 101]]}
        again = answer(
            await off_loop(lambda: ask(port, login, "/rules/api/check", {"rules": fixed}))
        )
        assert again["playable"] is True
        assert not [f for f in again["findings"] if f["kind"] == "conflict"]


async def test_switches_that_need_a_boneyard_are_no_effect_where_there_is_none(
    tmp_path: Path,
) -> None:
    """house deals the whole set to four: `reserve: 1` and `fish_counts: false` apply with two
    and three players and are a "no effect" note with four, never a conflict; on block (no
    boneyard at all) the reserve is greyed, and not also a conflict (issue 24)."""
    async with rules_server(tmp_path) as (port, login):

        async def check(rules: dict[str, Any]) -> dict[str, Any]:
            reply = await off_loop(lambda: ask(port, login, "/rules/api/check", {"rules": rules}))
            assert reply.status == 200, reply.body
            return answer(reply)

        for switch, code in (({"reserve": 1}, "N1"), ({"fish_counts": False}, "N21")):
            result = await check({"base": "house", **switch})
            assert result["playable"] is True, result["findings"]
            assert not [f for f in result["findings"] if f["kind"] == "conflict"]
            [name] = switch
            [note] = [f for f in result["findings"] if name in f["fields"]]
            assert note["code"] == code and note["kind"] == "inert"
            assert note["players"] == [4] and note["greyed"] is False
            assert "with 4 players" in note["text"]["en"] and "при 4 игроках" in note["text"]["ru"]
        block = await check({"base": "block", "reserve": 1})
        assert block["playable"] is True
        assert not [f for f in block["findings"] if f["kind"] == "conflict"]
        [grey] = [f for f in block["findings"] if "reserve" in f["fields"]]
        assert grey["greyed"] is True and grey["code"] == "N1"
        saved = await off_loop(
            lambda: ask(
                port,
                login,
                "/rules/api/save",
                {"name": "kept", "rules": {"base": "house", "reserve": 1}},
            )
        )
        assert saved.status == 200, saved.body
        assert load_rule_set(tmp_path, "kept").reserve == 1


async def test_a_switch_with_no_effect_comes_greyed_with_its_reason(tmp_path: Path) -> None:
    async with rules_server(tmp_path) as (port, login):
        result = answer(
            await off_loop(lambda: ask(port, login, "/rules/api/check", {"rules": "block"}))
        )
        greyed = {name: f for f in result["findings"] if f["greyed"] for name in f["fields"]}
        assert "draw_limit" in greyed and greyed["draw_limit"]["code"] == "N1"
        assert "nothing to draw" in greyed["draw_limit"]["text"]["en"]
        assert "прикупать нечего" in greyed["draw_limit"]["text"]["ru"]


async def test_a_set_is_saved_only_without_a_conflict_and_then_offered(tmp_path: Path) -> None:
    async with rules_server(tmp_path) as (port, login):
        bad = {"base": "house", "goal": "reach-wins"}
        refused = await off_loop(
            lambda: ask(port, login, "/rules/api/save", {"name": "endless", "rules": bad})
        )
        assert refused.status == 409
        problem = answer(refused)
        assert problem["problem"]["code"] == "conflict"
        assert "не сохранится" in problem["problem"]["text"]["ru"]
        assert [f["code"] for f in problem["findings"] if f["kind"] == "conflict"] == ["K8"]
        assert list_rule_sets(tmp_path) == []

        good = {"base": "block", "targets": [[2, 30], [3, 30], [4, 30]]}
        saved = await off_loop(
            lambda: ask(port, login, "/rules/api/save", {"name": "quick", "rules": good})
        )
        assert saved.status == 200, saved.body
        assert answer(saved)["saved"] == ["quick"]
        assert load_rule_set(tmp_path, "quick").targets == ((2, 30), (3, 30), (4, 30))

        listed = answer(await off_loop(lambda: ask(port, login, "/rules/api/sets")))
        assert listed["saved"] == ["quick"] and "house" in listed["presets"]
        opened = answer(
            await off_loop(lambda: ask(port, login, "/rules/api/open", {"name": "quick"}))
        )
        assert opened["saved"] is True and opened["draft"]["targets"] == [[2, 30], [3, 30], [4, 30]]
        preset = answer(
            await off_loop(lambda: ask(port, login, "/rules/api/open", {"name": "draw"}))
        )
        assert preset["saved"] is False and preset["draft"]["reserve"] == 2

        gone = await off_loop(lambda: ask(port, login, "/rules/api/delete", {"name": "quick"}))
        assert gone.status == 200 and answer(gone)["saved"] == []


async def test_bad_names_and_bad_drafts_get_a_reason_never_a_500(tmp_path: Path) -> None:
    async with rules_server(tmp_path) as (port, login):
        cases: list[tuple[str, Any, int, str]] = [
            ("/rules/api/save", {"name": "../up", "rules": "draw"}, 400, "name"),
            ("/rules/api/save", {"name": "house", "rules": "draw"}, 400, "name"),
            ("/rules/api/check", {"rules": {"base": "draw", "colour": 1}}, 400, "rules"),
            ("/rules/api/check", {"rules": {"base": "draw", "reserve": "many"}}, 400, "rules"),
            ("/rules/api/check", {"nothing": 1}, 400, "body"),
            ("/rules/api/check", b"[not json", 400, "body"),
            ("/rules/api/check", b"{" * 40_000, 400, "body"),
            ("/rules/api/open", {"name": "nope"}, 404, "missing"),
            ("/rules/api/delete", {"name": "nope"}, 404, "missing"),
        ]
        for path, body, status, code in cases:
            reply = await off_loop(lambda p=path, b=body: ask(port, login, p, b))  # type: ignore[misc]
            assert (reply.status, answer(reply)["problem"]["code"]) == (status, code), (path, body)
            assert answer(reply)["problem"]["text"]["ru"]


async def test_only_this_players_page_may_ask(tmp_path: Path) -> None:
    async with rules_server(tmp_path) as (port, login):
        page = await off_loop(lambda: http_get(port, "/rules", cookie=login.cookie))
        assert page.status == 200 and 'src="/static/rules_editor.js"' in page.body
        assert "script-src 'self'" in (page.header("content-security-policy") or "")
        stranger = await off_loop(lambda: http_get(port, "/rules"))
        assert stranger.status == 403 and "rules_editor.js" not in stranger.body
        no_key = await off_loop(lambda: ask(port, login, "/rules/api/form", key="wrong"))
        assert no_key.status == 403
        no_cookie = await off_loop(lambda: ask(port, None, "/rules/api/sets"))
        assert no_cookie.status == 403
        other_origin = await off_loop(
            lambda: http_get(
                port,
                "/rules/api/save",
                cookie=login.cookie,
                origin="http://127.0.0.1:1",
                method="POST",
                raw_headers=f"X-Page-Key: {login.key}\r\n".encode(),
                body=b'{"name": "x", "rules": "draw"}',
            )
        )
        assert other_origin.status == 403
        assert list_rule_sets(tmp_path) == []


async def test_without_a_data_directory_nothing_is_saved() -> None:
    async with rules_server(None) as (port, login):
        form = answer(await off_loop(lambda: ask(port, login, "/rules/api/form")))
        assert form["can_save"] is False and form["saved"] == []
        reply = await off_loop(
            lambda: ask(port, login, "/rules/api/save", {"name": "x", "rules": "draw"})
        )
        assert reply.status == 409 and answer(reply)["problem"]["code"] == "no_data"


def test_the_editor_has_a_control_for_every_playable_switch() -> None:
    covered = {name for control in CONTROLS for name in control.fields}
    assert covered == set(editable_fields())
    assert "layout" in covered and "cross_quota" in covered  # the table shapes (issue 16)
    assert {"teams", "general", "admiral", "snotty_goat", "winner_reset"} <= covered


async def test_the_rules_screen_shows_what_the_set_plays_next_to_each_switch(
    tmp_path: Path,
) -> None:
    async with rules_server(tmp_path) as (port, login):
        draft = {"base": "house", "fish_counts": False}
        for lang, off in (("ru", "выкл"), ("en", "off")):
            reply = await off_loop(
                lambda lang=lang: ask(  # type: ignore[misc]
                    port, login, "/rules/api/screen", {"rules": draft, "lang": lang}
                )
            )
            assert reply.status == 200, reply.body
            parts = answer(reply)["segments"]
            fish = [p for p in parts if p["field"] == "fish_counts"]
            assert fish and all(p["value"] == off for p in fish)
            assert all(p["field"] is None or p["value"] for p in parts)
            # The page's own text, whole (the Russian one is the seed's, word for word).
            assert "".join(p["text"] for p in parts) == plain_page(lang)


def test_a_table_may_be_created_with_a_saved_set_but_not_an_unknown_one(tmp_path: Path) -> None:
    save_rule_set(tmp_path, "quick", {"base": "block", "targets": [[2, 30], [3, 30], [4, 30]]})
    command = {"type": "host", "table": "Kitchen", "rules": "quick", "players": 2, "bots": 1}
    settings = host_settings(command, tmp_path)
    assert settings is not None and settings["rules"] == "quick"
    assert host_settings(command) is None  # no data directory: presets only
    assert host_settings({**command, "rules": "nope"}, tmp_path) is None
    assert host_settings({**command, "rules": "house"}, tmp_path) is not None


def test_the_create_form_takes_the_stall_timeout_bounds_of_its_switch_record() -> None:
    """The page once refused 1–9 s, which a rules file, the wire and the CLI accept."""
    from p2p_dominoes.engine.rules import FIELD
    from p2p_dominoes.ui.web.page_commands import check_host
    from p2p_dominoes.ui.web.refusals import refusal

    low, high = FIELD["stall_timeout_s"].bounds
    command = {"type": "host", "table": "Kitchen", "rules": "house", "players": 2, "bots": 1}
    for seconds in (low, 5, high):
        assert host_settings({**command, "stall_timeout": seconds}) is not None, seconds
    for seconds in (low - 1, high + 1):
        problem = check_host({**command, "stall_timeout": seconds})
        assert not isinstance(problem, dict)
        words = refusal(problem.key, "en", **dict(problem.values))
        assert words == f"The stall timeout is a whole number of seconds from {low} to {high}."
        assert f"от {low} до {high}" in refusal(problem.key, "ru", **dict(problem.values))
