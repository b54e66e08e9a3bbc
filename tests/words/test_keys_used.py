"""Every key the code looks up is in the catalogues, and every entry of the catalogues is
looked up somewhere: a word cannot go missing, nor linger after its code is gone."""

from __future__ import annotations

from p2p_dominoes.engine.rules_check import ROWS
from p2p_dominoes.net.lobby_lines import REFUSED_BECAUSE
from p2p_dominoes.words import keys
from tests.words.scan import PAGE_PREFIX, Use, package_uses, page_lookups, page_names_used, uses_in

DYNAMIC: frozenset[str] = frozenset(
    {f"net.refused_{code}" for code in REFUSED_BECAUSE}
    | {"net.refused_other"}
    | {row.key for row in ROWS}
)
"""Keys made from data rather than written out: a lobby refusal's words by its code
(`net/lobby_lines.refusal_line`), a rules check row's by its code (`engine.check.k1`)."""


def _areas() -> set[str]:
    return {key.split(".")[0] for key in keys("en")}


def test_every_key_the_code_names_is_in_the_catalogues() -> None:
    known = keys("en") & keys("ru")
    missing = [f"{use.where}: {use.key}" for use in package_uses(_areas()) if use.key not in known]
    assert missing == []
    assert known >= DYNAMIC


def test_every_entry_of_the_catalogues_is_used() -> None:
    used = {use.key for use in package_uses(_areas())} | DYNAMIC
    page = {key for key in keys("en") if key.startswith(PAGE_PREFIX)}  # the page's own test
    assert sorted(keys("en") - used - page) == []


def test_the_scan_finds_lookups_and_keys_in_tables() -> None:
    source = (
        "from p2p_dominoes.words import line\n"
        'TASKS = {"deal": "verdict.deal", "file": "verdict.py.txt"}\n'
        'said("seated", lang, seat=1)\n'
        'setup_said("host_lost", lang)\n'
        'words.line("lobby.help", lang)\n'
        "line(key, lang)\n"
        'plural("verify.hands_audited", 3, "ru")\n'
        'error.said("en")\n'
        'LABEL = Said("engine.control.d3")\n'
        '"board.not a key"\n'
        '"other.thing"\n'
    )
    found = {use.key for use in uses_in(source, "m.py", {"verdict", "lobby", "board"})}
    assert found == {
        "verdict.deal",
        "verdict.py.txt",  # shaped like a key of a known area: it must be one
        "net.seated",
        "setup.host_lost",
        "lobby.help",
        "verify.hands_audited",
        "engine.control.d3",
    }
    assert Use("net.seated", "m.py:3") in set(uses_in(source, "m.py", set()))


def _page_key(name: str) -> str:
    """The catalogue key of a name the page uses (`You` is `you_first`: keys are lower case)."""
    return PAGE_PREFIX + ("you_first" if name == "You" else name)


def test_every_page_word_is_used_by_the_page() -> None:
    """An entry `page_js.<name>` is used when the page's scripts or HTML write its name out as a
    string, or make names that begin like it (`` t(`bot_about_${kind}`) ``)."""
    named, made = page_names_used()
    page = {key for key in keys("en") if key.startswith(PAGE_PREFIX)}
    unused = [
        key
        for key in sorted(page)
        if key[len(PAGE_PREFIX) :] not in {_page_key(n)[len(PAGE_PREFIX) :] for n in named}
        and not key[len(PAGE_PREFIX) :].startswith(tuple(made))
    ]
    assert unused == []


def test_every_word_the_page_asks_for_is_in_the_catalogues() -> None:
    """`t("name", …)` and data-i18n="name" in the page name an entry of both catalogues (a
    name words.js turns into one of two entries, like `luck_drawn`, counts by its first)."""
    known = keys("en") & keys("ru")
    missing = sorted(name for name in page_lookups() if _page_key(name) not in known)
    assert missing == []
