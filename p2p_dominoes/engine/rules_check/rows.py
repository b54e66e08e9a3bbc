"""A check row: its code, the fields it names and its predicate, declared together with `@row`
on the predicate itself; its words are the catalogues' entry ``engine.check.<code>`` (``k1``…).

A predicate reads a draft (`Draft`) for one player count and returns None (the row does not
fire), one `Hit`, or several. The row's texts are `str.format` templates: `{players}` names the
player counts the finding covers; any other placeholder comes from the hit's `params`, where a
`Say` is a catalogue entry (``engine.check.<row>_…``), read in each language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from p2p_dominoes.engine.rule_fields import FIELD
from p2p_dominoes.words import line, template

if TYPE_CHECKING:
    from p2p_dominoes.engine.rules_check.draft import Draft

Kind = Literal["conflict", "inert"]
KINDS: Final = {"V": "conflict", "K": "conflict", "N": "inert"}
"""A code's letter says its kind: V structure and K conflicts stop a set; N has no effect."""


@dataclass(frozen=True)
class Say:
    """A placeholder value that reads differently in each language: its catalogue key."""

    key: str

    def __call__(self, lang: str) -> str:
        return template(self.key, lang)


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
    each_count: bool = True
    """Evaluated once per supported player count ({players} then names the counts)."""
    doc: str = ""
    """When it fires, in the words of docs/rules.md's table (generated from it)."""

    @property
    def key(self) -> str:
        """The catalogue key of the row's text: ``engine.check.k1`` for K1."""
        return f"engine.check.{self.code.lower()}"

    def text_in(self, lang: str) -> str:
        """The row's text in `lang` ("ru", else English), its placeholders not filled."""
        return template(self.key, lang)

    @property
    def ru(self) -> str:
        return self.text_in("ru")

    @property
    def en(self) -> str:
        return self.text_in("en")

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
    each_count: bool = True,
) -> Callable[[Test], Test]:
    """Declare the decorated predicate as check row `code`, with its fields and when it fires
    in the docs' words (its texts: the catalogues' ``engine.check.<code>``)."""
    if KINDS.get(code[:1]) != kind or not code[1:].isdigit():
        raise ValueError(f"check row {code!r}: a {kind} row's code is V1…, K1… or N1…")
    unknown = [name for name in fields if name not in FIELD]
    if unknown or any(r.code == code for r in REGISTERED):
        raise ValueError(f"check row {code}: unknown field {unknown} or a second row {code}")

    def declare(test: Test) -> Test:
        REGISTERED.append(Row(kind, code, fields, test, each_count, doc))
        return test

    return declare


def when(condition: bool, **params: str | int | Say) -> Hit | None:
    """A hit with `params` when `condition` holds, else None."""
    return Hit(params=params) if condition else None


Params = tuple[tuple[str, "str | Say"], ...]
"""A hit's params as a hashable key: (name, words) each (findings that agree share one)."""


def params_key(params: Mapping[str, str | int | Say]) -> Params:
    """The params as a hashable key (`Params`), numbers as text; words are read only when a
    finding's text is."""
    return tuple(
        (key, value if isinstance(value, Say) else str(value))
        for key, value in sorted(params.items())
    )


def fill(text: str, lang: str, params: Params, counts: Sequence[int]) -> str:
    """A row's text in `lang`, its placeholders filled."""
    values = {key: value(lang) if isinstance(value, Say) else value for key, value in params}
    values["players"] = players_text(counts, lang)
    return text.format(**values)


def players_text(counts: Sequence[int], lang: str) -> str:
    """ "4", "3 and 4", "2, 3 and 4": player counts as words read them."""
    listed = [str(n) for n in counts]
    if len(listed) <= 1:
        return "".join(listed)
    return line("engine.seats_and", lang, seats=", ".join(listed[:-1]), last=listed[-1])
