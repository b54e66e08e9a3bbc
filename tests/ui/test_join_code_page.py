"""The join code on the page's side: the host command's checkbox, the join command's typed code,
the host's lobby snapshot (the code in both languages, each request's short fingerprint), and
the page's copy of the word lists (for completion) equal to the protocol's file."""

from __future__ import annotations

import json
import re
from pathlib import Path

from p2p_dominoes.net.admission import Admission, LobbyState, Request
from p2p_dominoes.net.join_code import join_code_digits, join_code_words
from p2p_dominoes.session import Identity
from p2p_dominoes.session.table_code import word_lists
from p2p_dominoes.ui.web.lobby_rows import host_lobby_snapshot
from p2p_dominoes.ui.web.page_commands import Problem, check_host, check_join

STATIC = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "ui" / "web" / "static"
HOST = {"type": "host", "players": 2, "bots": 0}


def test_the_pages_checkbox_asks_a_fresh_code_and_its_absence_asks_none() -> None:
    on = check_host({**HOST, "join_code": True})
    off = check_host({**HOST, "join_code": False})
    older = check_host(HOST)  # a command without the field (tests, scripts): no code
    assert isinstance(on, dict) and isinstance(off, dict) and isinstance(older, dict)
    assert isinstance(on["join_code"], bytes) and len(on["join_code"]) == 3
    assert off["join_code"] is None and older["join_code"] is None
    again = check_host({**HOST, "join_code": True})
    assert isinstance(again, dict) and again["join_code"] != on["join_code"]  # (1 in 2^24)
    wrong = check_host({**HOST, "join_code": "yes"})
    assert isinstance(wrong, Problem) and wrong.key == "join_code"


def test_a_joiners_typed_code_is_read_as_the_terminal_reads_it() -> None:
    code = bytes([0, 21, 184])
    join = {"type": "join", "address": "127.0.0.1:47800"}
    for typed in (join_code_words(code), join_code_words(code, "ru").upper(), "0 21 184"):
        target = check_join({**join, "code": typed})
        assert not isinstance(target, Problem) and target.code == code
    for none in ({}, {"code": ""}, {"code": "   "}):
        target = check_join({**join, **none})
        assert not isinstance(target, Problem) and target.code is None
    for bad in ("apple pie", 7, "x" * 300, "1 2 999"):
        problem = check_join({**join, "code": bad})
        assert isinstance(problem, Problem) and problem.key == "join_code", bad


def test_the_hosts_lobby_carries_its_code_and_each_requests_short_fingerprint() -> None:
    code = bytes([5, 6, 7])
    admission = Admission(ask=True, code=code)
    bob = Identity.generate().public
    request = admission.request(bob, "Bob", "10.0.0.2:1", seats_free=1, seated=False, code=code)
    assert isinstance(request, Request)
    state = LobbyState("t", 2, (), (request,), False, code)
    shown = host_lobby_snapshot(state, 0.0)
    assert shown is not None
    assert shown["code"] == {
        "en": join_code_words(code, "en"),
        "ru": join_code_words(code, "ru"),
        "digits": join_code_digits(code),
    }
    assert shown["pending"][0]["short"] == bob.short_fingerprint
    unset = host_lobby_snapshot(LobbyState("t", 2, (), ()), 0.0)
    assert unset is not None and unset["code"] is None


def test_the_pages_word_lists_are_the_protocols() -> None:
    text = (STATIC / "code_words.js").read_text(encoding="utf-8")
    body = re.search(r"export const WORDS = (\{.*\});", text, re.DOTALL)
    assert body is not None
    # The module is a JS object literal: make it JSON (quote keys, drop trailing commas).
    literal = re.sub(r",(\s*[\]}])", r"\1", re.sub(r"(\w+): \[", r'"\1": [', body.group(1)))
    assert json.loads(literal) == {k: list(v) for k, v in word_lists().items()}
