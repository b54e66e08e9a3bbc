"""The page's own words come from the catalogues (page_js.<key> in p2p_dominoes/words/*.po),
served at /words.json and filled by static/words.js; they say exactly what the page's former
JS tables (static/strings.js before issue 26) said, in both languages.

`page_words_before.json` holds what those tables gave for every entry, for each of a few
argument lists (the numbers 0, 1, 2, 5, 11, 21, 22 in every place, and two lists of words),
captured once by running the old strings.js under node; null where the old entry threw. The
new path runs words.js under node on the document the peer serves.
"""

from __future__ import annotations

import gettext
import json
import shutil
import subprocess
from pathlib import Path

import trio

from p2p_dominoes.ui.web import Hub, PageAccess, serve_page
from p2p_dominoes.ui.web.page_words import page_words_json
from p2p_dominoes.words import LANGUAGES, plural_forms
from tests.ui.page_client import http_get

STATIC = Path(__file__).resolve().parents[2] / "p2p_dominoes" / "ui" / "web" / "static"
BEFORE = Path(__file__).with_name("page_words_before.json")
NODE = shutil.which("node")
"""node runs the page's words.js; `.ci/run` installs it (Debian's nodejs), and a missing node
fails these tests rather than skipping them."""

_RENDER = """
import { say, PLURAL_RULES } from %(words)s;
const words = %(served)s;
const before = %(before)s;
const out = { texts: {}, rules: {} };
for (const [lang, table] of Object.entries(before.texts)) {
  out.texts[lang] = {};
  for (const [key, expected] of Object.entries(table)) {
    out.texts[lang][key] = Array.isArray(expected)
      ? before.variants.map((args) => say(words[lang], key, args) ?? null)
      : say(words[lang], key, []) ?? null;
  }
  out.rules[lang] = [...Array(1000).keys()].map(PLURAL_RULES[lang]);
}
console.log(JSON.stringify(out));
"""


def _run_words_js(tmp_path: Path) -> dict[str, dict[str, object]]:
    assert NODE is not None
    script = tmp_path / "render.mjs"
    script.write_text(
        _RENDER
        % {
            "words": json.dumps((STATIC / "words.js").as_uri()),
            "served": page_words_json().decode("utf-8"),
            "before": BEFORE.read_text("utf-8"),
        },
        "utf-8",
    )
    assert NODE is not None, "node runs the page's words.js (Debian: apt install nodejs)"
    done = subprocess.run(
        [NODE, str(script)], capture_output=True, text=True, timeout=60, check=True
    )
    result: dict[str, dict[str, object]] = json.loads(done.stdout)
    return result


def test_every_entry_says_what_the_old_tables_said(tmp_path: Path) -> None:
    before = json.loads(BEFORE.read_text("utf-8"))["texts"]
    after = _run_words_js(tmp_path)["texts"]
    assert set(before) == set(after) == set(LANGUAGES)
    differ = []
    for lang, table in before.items():
        for key, expected in table.items():
            said = after[lang][key]
            if isinstance(expected, list):
                assert isinstance(said, list)
                said = [new for old, new in zip(expected, said, strict=True) if old is not None]
                expected = [old for old in expected if old is not None]
            if said != expected:
                differ.append(f"{lang} {key}: {said!r} != {expected!r}")
    assert differ == []
    # every entry of the old tables but "scores" and "hand_n", which no page script used (the
    # move dropped them: tests/words/test_keys_used.py)
    assert len(before["en"]) == len(before["ru"]) == 225


def test_the_page_plural_rules_are_the_catalogues(tmp_path: Path) -> None:
    """words.js's rule for each language picks the form gettext picks from the catalogue's
    Plural-Forms header, for 0 to 999."""
    rules = _run_words_js(tmp_path)["rules"]
    for lang in LANGUAGES:
        header = plural_forms(lang)
        expression = header.split("plural=", 1)[1].rstrip(";")
        choose = gettext.c2py(expression)
        assert rules[lang] == [choose(n) for n in range(1000)], lang


def test_the_document_holds_every_page_word_of_both_languages() -> None:
    served = json.loads(page_words_json())
    assert set(served) == set(LANGUAGES)
    en, ru = served["en"], served["ru"]
    assert set(en["lines"]) == set(ru["lines"]) and len(en["lines"]) > 200
    assert (
        set(en["plurals"]) == set(ru["plurals"]) == {"tiles", "fits_places", "badge_drew", "pips_n"}
    )
    assert [len(forms) for forms in ru["plurals"].values()] == [3] * 4
    assert en["lines"]["lobby"] == "Lobby" and ru["lines"]["lobby"] == "Лобби"


async def test_words_json_is_served_with_the_page_headers_and_checks() -> None:
    """No cookie needed (the "open elsewhere" screen says its words too), but the Host check
    and the security headers hold as for every response."""
    async with trio.open_nursery() as nursery:
        base = await nursery.start(serve_page, Hub(), PageAccess(), 0)
        port = int(base.rsplit(":", 1)[1])
        reply = await trio.to_thread.run_sync(lambda: http_get(port, "/words.json"))
        wrong_host = await trio.to_thread.run_sync(
            lambda: http_get(port, "/words.json", host=f"evil.example:{port}")
        )
        nursery.cancel_scope.cancel()
    assert reply.status == 200
    assert reply.header("content-type") == "application/json"
    assert "script-src 'self'" in (reply.header("content-security-policy") or "")
    assert reply.header("x-content-type-options") == "nosniff"
    assert json.loads(reply.body) == json.loads(page_words_json())
    assert wrong_host.status == 403


def test_no_page_script_holds_a_word_list_of_its_own() -> None:
    """strings.js is a loader now: it names no page word in any language."""
    script = (STATIC / "strings.js").read_text("utf-8")
    assert "Lobby" not in script and "Лобби" not in script
    assert "/words.json" in script
