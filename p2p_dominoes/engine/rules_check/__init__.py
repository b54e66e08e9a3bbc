"""The rules editor's check: which switches cannot hold together, and which have no effect.

`check_rules` reads a draft (every field of a rules object, as `rules.draft_of` gives it) and
returns findings, each naming the switches involved and why, in Russian and English (the
catalogues' ``engine.check.*``, read when a finding's text is). A
*conflict* means the set cannot be saved or played ("such a set will not be saved"); an *inert*
finding greys a switch that changes nothing in the assembled game ("greys out, with a reason").

Each row is declared once, on its predicate, with its code, fields and both texts (`@row`,
rows.py): structure_rows.py holds V1–V4, conflict_rows.py K1–K19 (K2 retired),
no_effect_rows.py N1–N21; the draft's typed reads are draft.py's. Every row is evaluated for
each supported player count; one finding covers the counts where a row fires alike
(docs/rules.md lists every row).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from p2p_dominoes.engine.rules_check import conflict_rows, no_effect_rows, structure_rows
from p2p_dominoes.engine.rules_check.draft import ALL_PIPS, TILES, Draft
from p2p_dominoes.engine.rules_check.rows import (
    REGISTERED,
    Hit,
    Kind,
    Params,
    Row,
    Say,
    fill,
    params_key,
    players_text,
)
from p2p_dominoes.words import Phrase, phrase

_ROW_MODULES: Final = (structure_rows, conflict_rows, no_effect_rows)
"""The modules whose `@row`s make up the check (imported for their declarations)."""

ROWS: Final[tuple[Row, ...]] = tuple(sorted(REGISTERED, key=lambda r: r.order))
"""Every row, in the order findings are reported (a record's first conflict is the first)."""


class FindingText(Mapping[str, str]):
    """A finding's text by language, {"ru": …, "en": …}, placeholders filled: each language
    read from the catalogues when it is first asked for (rules are checked on import, for the
    presets, and their words are not needed then)."""

    LANGUAGES: Final = ("ru", "en")

    def __init__(self, row: Row, params: Params, shown: Sequence[int]) -> None:
        self._row, self._params, self._shown = row, params, tuple(shown)
        self._said: dict[str, str] = {}

    def __getitem__(self, lang: str) -> str:
        if lang not in self.LANGUAGES:
            raise KeyError(lang)
        if lang not in self._said:
            self._said[lang] = fill(self._row.text_in(lang), lang, self._params, self._shown)
        return self._said[lang]

    def __iter__(self) -> Iterator[str]:
        return iter(self.LANGUAGES)

    def __len__(self) -> int:
        return len(self.LANGUAGES)

    def __repr__(self) -> str:
        return repr(dict(self))

    def said(self) -> Phrase:
        """The text as a `Phrase`: its English text, read again in a player's language (a
        rules set refused where it is read says why in the reader's words)."""
        values: dict[str, object] = {
            name: phrase(value.key) if isinstance(value, Say) else value
            for name, value in self._params
        }
        listed = [str(n) for n in self._shown]
        values["players"] = (
            "".join(listed)
            if len(listed) <= 1
            else phrase("engine.seats_and", seats=", ".join(listed[:-1]), last=listed[-1])
        )
        return phrase(self._row.key, **values)


@dataclass(frozen=True)
class Finding:
    """One conflict or switch with no effect: the switches involved, where, and why."""

    kind: Kind
    code: str
    """Stable id of the row, e.g. "K2" or "N1"."""
    fields: tuple[str, ...]
    """The fields involved (the editor highlights them)."""
    players: tuple[int, ...]
    """The player counts it applies to; () = every supported count."""
    text: Mapping[str, str] = field(hash=False)
    """{"ru": …, "en": …}, placeholders filled."""

    def said(self) -> str:
        """The text as a `Phrase` (English to every caller, readable in a player's language)."""
        text = self.text
        return text.said() if isinstance(text, FindingText) else str(text["en"])

    @property
    def greyed(self) -> bool:
        """An inert finding for every supported count: the editor greys its switches."""
        return self.kind == "inert" and not self.players


def check_rules(draft: Mapping[str, object]) -> list[Finding]:
    """Every finding for `draft`: conflicts (V, K) first in code order, then inert ones (N)."""
    try:
        key = tuple((name, _frozen(value)) for name, value in draft.items())
        hash(key)
    except TypeError:  # a value of no known shape: check it afresh
        return _check(draft)
    return list(_check_frozen(key))


def _frozen(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


@functools.lru_cache(maxsize=256)
def _check_frozen(key: tuple[tuple[str, object], ...]) -> tuple[Finding, ...]:
    # Rules are checked each time one is built (records, genesis, the editor): the same few
    # sets over and over, so the answers are kept.
    return tuple(_check(dict(key)))


def _check(draft: Mapping[str, object]) -> list[Finding]:
    d = Draft(draft)
    found: list[Finding] = []
    for row in ROWS:
        hits: dict[tuple[tuple[str, ...], Params], list[int]] = {}
        for n in d.counts if row.each_count else (0,):
            hit = row.test(d, n)
            for one in [] if hit is None else [hit] if isinstance(hit, Hit) else hit:
                key = (one.fields or row.fields, params_key(one.params))
                hits.setdefault(key, []).append(n)
        for (fields, params), counts in hits.items():
            players = () if not row.each_count or counts == list(d.counts) else tuple(counts)
            shown = counts if row.each_count else list(d.counts)
            text = FindingText(row, params, shown)
            found.append(Finding(row.kind, row.code, fields, players, text))
    return _conflict_first(found)


def _conflict_first(found: list[Finding]) -> list[Finding]:
    """A switch named by a conflict is not also said to have no effect: the conflict is what
    must be resolved, and the editor showed both on one switch ("Conflict: …" and "No effect
    here: …"). An inert finding keeps its other switches, and goes when none is left."""
    clashing = {name for f in found if f.kind == "conflict" for name in f.fields}
    out = []
    for finding in found:
        if finding.kind == "inert" and clashing.intersection(finding.fields):
            left = tuple(name for name in finding.fields if name not in clashing)
            if not left:
                continue
            finding = dataclasses.replace(finding, fields=left)
        out.append(finding)
    return out


def checks_of(name: str) -> tuple[str, ...]:
    """The codes of the rows that name field `name` (a switch's checks, for its record's
    reader and the docs' table)."""
    return tuple(row.code for row in ROWS if name in row.fields)


def conflicts(findings: Iterable[Finding]) -> list[Finding]:
    """The findings that stop a set from being saved or played."""
    return [f for f in findings if f.kind == "conflict"]


def inert(findings: Iterable[Finding]) -> list[Finding]:
    """The findings about switches with no effect (greyed, or a note for some counts)."""
    return [f for f in findings if f.kind == "inert"]


def greyed_fields(findings: Iterable[Finding], counts: Sequence[int]) -> dict[str, list[Finding]]:
    """The fields with no effect at every one of `counts` (the supported player counts), each
    with the findings that say why (one finding, or several that share the counts out)."""
    covered: dict[str, set[int]] = {}
    why: dict[str, list[Finding]] = {}
    for finding in inert(findings):
        for name in finding.fields:
            covered.setdefault(name, set()).update(finding.players or counts)
            why.setdefault(name, []).append(finding)
    return {name: why[name] for name in why if covered[name] >= set(counts)}


__all__ = [
    "ALL_PIPS",
    "ROWS",
    "TILES",
    "Finding",
    "Kind",
    "Row",
    "check_rules",
    "checks_of",
    "conflicts",
    "greyed_fields",
    "inert",
    "players_text",
]
