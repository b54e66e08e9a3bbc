"""The record of one house-rule switch: everything about it that is not its behaviour, in one
place — its field (name, kind, bounds, default: engine/field_spec.py), whether it changes how
turns go, its words in both languages (label and values), its control on the rules page, and
its control in the editor. Its checks are the rows of engine/rules_check/ that name it, each
declared on its predicate with both texts (`checks_of` in engine/switches/__init__.py).

Everything else is read or generated from the records: the field table (`FIELDS`), the labels
and value words of `rules show` and the rules page, the editor's controls, the docs' tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from p2p_dominoes.engine.field_spec import FieldSpec
from p2p_dominoes.engine.words import Text

LAST: Final = 10_000
"""The order of a control placed after every other one (a new switch's, unless it says)."""
EditKind = Literal["choice", "bool", "number"]


@dataclass(frozen=True)
class Page:
    """The switch's own control on the rules page (its "agreements"; `rules_text.CONTROLS`)."""

    key: str = ""
    """The control's key: the switch id of the rules study (T2, X1, …), else the field name
    (the default: the field's `switch`, or its name)."""
    order: int = LAST
    """Where the control stands among the page's controls (lower first)."""


@dataclass(frozen=True)
class Edit:
    """The switch's control in the house-rules editor (`ui/rules_form.py`)."""

    group: str
    """The editor's group: deal, opening, play, scoring, match, kozel or table."""
    kind: EditKind
    """choice: a list of every value played; bool: a tick box; number: a number box."""
    hint: Text | None = None
    order: int = LAST
    """Where the control stands in the editor (lower first; groups are drawn apart)."""
    values: tuple[Any, ...] = ()
    """For a choice: the values offered, when not every value played."""
    label_of: str = ""
    """The rules-page control whose label the editor shows (default: the field's label)."""


@dataclass(frozen=True)
class Switch:
    """One switch, declared once (engine/switches/first_version.py and later.py)."""

    spec: FieldSpec
    label: Text
    values: Mapping[Any, Text] = field(default_factory=dict)
    """Words for each value (every value of an enum or a yes/no switch; catalogue entries)."""
    text: Callable[[Any, str], str] | None = None
    """Words for a value `values` does not hold (numbers, pairs), in a language."""
    affects_turns: bool = False
    """Some value other than the default changes how a turn goes (the turn machine's plan)."""
    page: Page | None = Page()
    """Its own control on the rules page; None when a control over several fields sets it."""
    edit: Edit | None = None
    """Its own control in the editor; None when a control over several fields sets it."""
    page_note: Text | None = None
    """A line for the rules page's «Other house rules» list, after its label (for a switch the
    page's text does not mention; engine/rules_page.py)."""
    origin: str = ""
    """Where it comes from, as docs/rules.md's table says (default: its seed switch id)."""

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def source(self) -> str:
        """Its origin for the docs' table: the rule text or the study's switch id, or —."""
        return self.origin or self.spec.switch or "—"

    @property
    def page_key(self) -> str:
        """The key of its own rules-page control."""
        return (self.page.key if self.page else "") or self.spec.switch or self.spec.name

    def value_text(self, value: Any, lang: str) -> str:
        """The words for `value` of this switch."""
        key = value if not isinstance(value, list) else None
        if key is not None and key in self.values:
            return self.values[key](lang)
        if self.text is not None:
            return self.text(value, lang)
        return str(value)
