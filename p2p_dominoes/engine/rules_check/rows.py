"""A check row: its code, the fields it names, its predicate, and its two texts, declared
together with `@row` on the predicate itself (so the words sit next to the code they describe).

A predicate reads a draft (`Draft`) for one player count and returns None (the row does not
fire), one `Hit`, or several. The row's texts are `str.format` templates: `{players}` names the
player counts the finding covers; any other placeholder comes from the hit's `params`, where a
`Say` reads differently in each language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from p2p_dominoes.engine.rule_fields import FIELD

if TYPE_CHECKING:
    from p2p_dominoes.engine.rules_check.draft import Draft

Kind = Literal["conflict", "inert"]
KINDS: Final = {"V": "conflict", "K": "conflict", "N": "inert"}
"""A code's letter says its kind: V structure and K conflicts stop a set; N has no effect."""


@dataclass(frozen=True)
class Say:
    """A placeholder value that reads differently in each language."""

    ru: str
    en: str


@dataclass(frozen=True)
class Hit:
    """A row fired: its fields (when they depend on the draft) and placeholder values."""

    fields: tuple[str, ...] = ()
    params: Mapping[str, str | int | Say] = field(default_factory=dict)


Test = Callable[["Draft", int], "Hit | list[Hit] | None"]


@dataclass(frozen=True)
class Row:
    """One row of the check (docs/rules.md lists them all by code)."""

    kind: Kind
    code: str
    fields: tuple[str, ...]
    test: Test
    ru: str
    en: str
    each_count: bool = True
    """Evaluated once per supported player count ({players} then names the counts)."""
    doc: str = ""
    """When it fires, in the words of docs/rules.md's table (generated from it)."""

    @property
    def order(self) -> tuple[int, int]:
        """Where the row is reported: V, then K, then N, each by number."""
        return ("VKN".index(self.code[0]), int(self.code[1:]))


REGISTERED: Final[list[Row]] = []
"""Every row declared with `@row`, in the order the modules declare them."""


def row(
    kind: Kind,
    code: str,
    fields: tuple[str, ...],
    *,
    doc: str,
    ru: str,
    en: str,
    each_count: bool = True,
) -> Callable[[Test], Test]:
    """Declare the decorated predicate as check row `code`, with its fields, when it fires in
    the docs' words, and both texts."""
    if KINDS.get(code[:1]) != kind or not code[1:].isdigit():
        raise ValueError(f"check row {code!r}: a {kind} row's code is V1…, K1… or N1…")
    unknown = [name for name in fields if name not in FIELD]
    if unknown or any(r.code == code for r in REGISTERED):
        raise ValueError(f"check row {code}: unknown field {unknown} or a second row {code}")

    def declare(test: Test) -> Test:
        REGISTERED.append(Row(kind, code, fields, test, ru, en, each_count, doc))
        return test

    return declare


def when(condition: bool, **params: str | int | Say) -> Hit | None:
    """A hit with `params` when `condition` holds, else None."""
    return Hit(params=params) if condition else None


def params_key(params: Mapping[str, str | int | Say]) -> tuple[tuple[str, str, str], ...]:
    """The params as a hashable key: (name, ru, en) each (findings that agree share one)."""
    out = []
    for key, value in sorted(params.items()):
        if isinstance(value, Say):
            out.append((key, value.ru, value.en))
        else:
            out.append((key, str(value), str(value)))
    return tuple(out)


def fill(
    template: str, lang: str, params: tuple[tuple[str, str, str], ...], counts: Sequence[int]
) -> str:
    """A row's text in `lang`, its placeholders filled."""
    values = {key: ru if lang == "ru" else en for key, ru, en in params}
    values["players"] = players_text(counts, lang)
    return template.format(**values)


def players_text(counts: Sequence[int], lang: str) -> str:
    """ "4", "3 and 4", "2, 3 and 4": player counts as words read them."""
    words = [str(n) for n in counts]
    joiner = " и " if lang == "ru" else " and "
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + joiner + words[-1]
