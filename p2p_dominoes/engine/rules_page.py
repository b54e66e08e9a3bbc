"""The rules screen: the seed-003 page as the game's own (Russian word for word, and English),
with each switch it names marked, and the table's current choice shown next to it.

The page texts are package data (`rules_page_ru.txt`, `rules_page_en.txt`); a switch in them is
``{{switch:FIELD|words}}`` or ``{{switch:FIELD/CONTROL|words}}`` when one field has two controls
(`drawing` is both "is there a boneyard" and "may you draw while holding a play"), and
``{{switch:FIELD}}`` when the words are the switch's label (its record's). ``{{notes}}`` is where
the «Other house rules» list takes one line for each switch whose record has a `page_note` (a
switch the page's own text does not mention: a new switch needs no edit of the page files).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Final, NamedTuple

from p2p_dominoes.engine.errors import InvalidRecord
from p2p_dominoes.engine.rules_check import check_rules, greyed_fields
from p2p_dominoes.engine.rules_text import CONTROL, Control, control_of
from p2p_dominoes.engine.switches import SWITCH, SWITCHES
from p2p_dominoes.engine.words import check_lang
from p2p_dominoes.words import line

_MARK: Final = re.compile(r"\{\{switch:([a-z_]+)(?:/([A-Za-z0-9-]+))?(?:\|([^{}]*))?\}\}")
_NOTES: Final = "{{notes}}"


class Segment(NamedTuple):
    """A piece of the page: plain text (field None), or the words of a switch with the field
    its editor control sets and the table's current choice in words."""

    text: str
    field: str | None = None
    value: str | None = None
    greyed: bool = False
    """The switch has no effect at any of the table's player counts."""
    control: str | None = None
    """The key of the editor control (`rules_text.CONTROL`) that sets it."""


class Mark(NamedTuple):
    field: str
    control: Control
    words: str


@cache
def page_source(lang: str = "ru") -> str:
    """The page with its switch markers (package data)."""
    check_lang(lang)
    return resources.files(__package__).joinpath(f"rules_page_{lang}.txt").read_text("utf-8")


def notes(lang: str = "ru") -> str:
    """The «Other house rules» lines of the switches whose records have a page note."""
    return "".join(
        f"- {{{{switch:{s.name}}}}} — {s.page_note(lang)}\n" for s in SWITCHES if s.page_note
    )


def _source(lang: str, *, with_notes: bool = True) -> str:
    """The page with its notes in place (or none); every marker still in it."""
    return page_source(lang).replace(_NOTES, notes(lang) if with_notes else "")


def _words(match: re.Match[str], lang: str) -> str:
    """A marker's words: its own, or the switch's label."""
    words = match.group(3)
    return words if words is not None else SWITCH[match.group(1)].label(lang)


def marks(lang: str = "ru") -> list[Mark]:
    """Every switch marked on the page, in page order."""
    return [m for m in _pieces(lang) if isinstance(m, Mark)]


def plain_page(lang: str = "ru", *, with_notes: bool = True) -> str:
    """The page as written, markers removed (the Russian one is the seed word for word when
    `with_notes` is off: the records' notes are lines the seed does not have)."""
    return _MARK.sub(lambda m: _words(m, lang), _source(lang, with_notes=with_notes))


def segments(draft: Mapping[str, Any], lang: str = "ru") -> list[Segment]:
    """The page for a table playing `draft` (a full rules object): text and switch segments."""
    counts = [n for n, _ in draft["hand_sizes"]]
    grey = greyed_fields(check_rules(draft), counts)
    out = []
    for piece in _pieces(lang):
        if isinstance(piece, str):
            out.append(Segment(piece))
        else:
            value = piece.control.text(draft, lang)
            dead = all(name in grey for name in piece.control.fields)
            out.append(Segment(piece.words, piece.field, value, dead, piece.control.key))
    return out


def render_text(draft: Mapping[str, Any], lang: str = "ru") -> str:
    """The page for a terminal: each switch followed by the table's choice, e.g.
    "… [now: draw until you can play]", and "; no effect here" when it changes nothing here."""
    now = line("engine.page.now", check_lang(lang))
    dead = line("engine.page.no_effect", lang)
    parts = []
    for seg in segments(draft, lang):
        parts.append(seg.text)
        if seg.field is not None:
            parts.append(f" [{now}: {seg.value}{'; ' + dead if seg.greyed else ''}]")
    return "".join(parts)


def _pieces(lang: str) -> list[str | Mark]:
    source = _source(lang)
    out: list[str | Mark] = []
    at = 0
    for match in _MARK.finditer(source):
        if match.start() > at:
            out.append(source[at : match.start()])
        name, key = match.group(1), match.group(2)
        words = _words(match, lang)
        control = CONTROL[key] if key else control_of(name)
        if name not in control.fields:
            raise InvalidRecord(f"rules page: {name} is not set by control {control.key}")
        out.append(Mark(name, control, words))
        at = match.end()
    if at < len(source):
        out.append(source[at:])
    return out
