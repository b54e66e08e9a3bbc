"""The house-rules editor's controls: every playable switch, in the rules page's own words.

Each control names the fields it sets and, for a choice, what each choice sets and which values
it stands for (seed 003's agreements control, "when you cannot move: draw before the move · one
tile and pass · buy at will", is one control over two fields). A draft no choice describes
shows "other".
The words are engine/rules_text.py's (the same labels as `rules show` and the rules screen);
the editor's own (its groups, "other") are the catalogues' (``page.rules_form.*``).
This is data for the page (`form()` is JSON); the page never decides what is allowed: it sends
the draft to the peer, which runs `check_rules` (ui/web/rules_api.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from p2p_dominoes.engine.rules import FIELD, FIELDS, HOUSE
from p2p_dominoes.engine.rules_text import CONTROL, FIELD_LABELS, LANGUAGES, value_text
from p2p_dominoes.engine.switches import SWITCHES, Edit, Switch
from p2p_dominoes.words import line

Words = Mapping[str, str]
"""{"ru": …, "en": …}"""
ControlKind = Literal["choice", "bool", "number", "counts"]


@dataclass(frozen=True)
class Choice:
    """One choice of a control: its words, the values it sets, and the drafts it describes."""

    words: Words
    sets: Mapping[str, Any]
    matches: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    """field → the values this choice stands for (default: exactly what it sets)."""

    def describes(self, draft: Mapping[str, Any]) -> bool:
        wanted = self.matches or {name: (value,) for name, value in self.sets.items()}
        return all(draft.get(name) in values for name, values in wanted.items())


@dataclass(frozen=True)
class Control:
    """One control of the editor."""

    key: str
    group: str
    kind: ControlKind
    fields: tuple[str, ...]
    words: Words
    choices: tuple[Choice, ...] = ()
    hint: Words | None = None
    seed: str = ""
    """The rules page's control (rules_text.CONTROL) whose words say what this one holds."""

    def choice_of(self, draft: Mapping[str, Any]) -> int | None:
        """The index of the choice that describes `draft`, or None ("other")."""
        return next((i for i, c in enumerate(self.choices) if c.describes(draft)), None)


def _w(key: str) -> Words:
    """The catalogue's line `key` in both languages, Russian first (as the page reads them)."""
    return {lang: line(key, lang) for lang in ("ru", "en")}


GROUPS: Final[tuple[tuple[str, Words], ...]] = (
    ("deal", _w("page.rules_form.group_deal")),
    ("opening", _w("page.rules_form.group_opening")),
    ("play", _w("page.rules_form.group_play")),
    ("scoring", _w("page.rules_form.group_scoring")),
    ("match", _w("page.rules_form.group_match")),
    ("kozel", _w("page.rules_form.group_kozel")),
    ("table", _w("page.rules_form.group_table")),
)


def _label(name: str) -> Words:
    return {lang: FIELD_LABELS[name](lang) for lang in LANGUAGES}


def _seed(key: str) -> Words:
    """The label of one of the rules page's own controls (D3, W1, W3 …)."""
    return {lang: CONTROL[key].label(lang) for lang in LANGUAGES}


def _values(name: str, values: Sequence[Any]) -> tuple[Choice, ...]:
    return tuple(
        Choice({lang: value_text(name, v, lang) for lang in LANGUAGES}, {name: v}) for v in values
    )


def _seed_choice(key: str, sets: Mapping[str, Any], **matches: tuple[Any, ...]) -> Choice:
    """A choice of a seed control, in the words the rules page uses for that choice."""
    draft = {**HOUSE.to_dict(), **sets}
    return Choice({lang: CONTROL[key].text(draft, lang) for lang in LANGUAGES}, sets, matches)


def _own(switch: Switch, edit: Edit) -> Control:
    """A switch's own control, from its record: a choice offers every value played."""
    spec = switch.spec
    values: Sequence[Any] = ()
    if edit.kind == "choice":
        values = (
            edit.values
            or spec.choices
            or spec.int_choices
            or range(spec.low or 0, (spec.high or 0) + 1)
        )
    words = _seed(edit.label_of) if edit.label_of else _label(switch.name)
    hint = {lang: edit.hint(lang) for lang in LANGUAGES} if edit.hint else None
    return Control(
        switch.name,
        edit.group,
        edit.kind,
        (switch.name,),
        words,
        _values(switch.name, values),
        hint,
    )


_SEVERAL: Final[tuple[tuple[int, Control], ...]] = (
    (
        10,
        Control(
            "counts",
            "deal",
            "counts",
            ("hand_sizes", "targets"),
            {
                lang: f"{FIELD_LABELS['hand_sizes'](lang)} · {FIELD_LABELS['targets'](lang)}"
                for lang in LANGUAGES
            },
        ),
    ),
    (
        20,
        Control(
            "boneyard",
            "deal",
            "choice",
            ("drawing",),
            _seed("D3"),
            (
                _seed_choice("D3", {"drawing": "when-stuck"}, drawing=("when-stuck", "any-time")),
                _seed_choice("D3", {"drawing": "never"}),
            ),
            seed="D3",
        ),
    ),
    (
        30,
        Control(
            "stuck",
            "deal",
            "choice",
            ("must_draw_when_stuck", "draw_limit"),
            _seed("W1"),
            (
                _seed_choice("W1", {"must_draw_when_stuck": True, "draw_limit": 0}),
                _seed_choice("W1", {"must_draw_when_stuck": True, "draw_limit": 1}),
                _seed_choice(
                    "W1",
                    {"must_draw_when_stuck": False, "draw_limit": 0},
                    must_draw_when_stuck=(False,),
                ),
            ),
            seed="W1",
        ),
    ),
    (
        60,
        Control(
            "buy_anyway",
            "deal",
            "choice",
            ("drawing",),
            _seed("W3"),
            (
                _seed_choice("W3", {"drawing": "any-time"}),
                _seed_choice("W3", {"drawing": "when-stuck"}),
            ),
        ),
    ),
)
"""The controls over several fields, or over one in the rules page's own words, with their
places among the switches' own controls (each switch's record gives its own: `Edit`)."""

CONTROLS: Final[tuple[Control, ...]] = tuple(
    control
    for _, control in sorted(
        [*_SEVERAL, *((s.edit.order, _own(s, s.edit)) for s in SWITCHES if s.edit)],
        key=lambda pair: pair[0],
    )
)
"""Every control of the editor, in the order the page shows them (by group)."""

OTHER: Final[Words] = _w("page.rules_form.other")


def editable_fields() -> tuple[str, ...]:
    """Every playable field the editor shows (the name is the set's own, given on save)."""
    return tuple(spec.name for spec in FIELDS if spec.playable and spec.name != "name")


def _limits(name: str) -> dict[str, Any]:
    spec = FIELD[name]
    return {"low": spec.low, "high": spec.high}


def form() -> dict[str, Any]:
    """The editor's controls as JSON for the page (both languages)."""
    return {
        "groups": [{"key": key, "words": dict(words)} for key, words in GROUPS],
        "other": dict(OTHER),
        "controls": [
            {
                "key": c.key,
                "group": c.group,
                "kind": c.kind,
                "fields": list(c.fields),
                "words": dict(c.words),
                "hint": dict(c.hint) if c.hint else None,
                "choices": [
                    {
                        "words": dict(ch.words),
                        "sets": dict(ch.sets),
                        "matches": {k: list(v) for k, v in ch.matches.items()},
                    }
                    for ch in c.choices
                ],
                **(_limits(c.fields[0]) if c.kind == "number" else {}),
            }
            for c in CONTROLS
        ],
    }


def current_words(draft: Mapping[str, Any]) -> dict[str, Words]:
    """What each choice control holds in `draft`, in words (the page shows it as "other: …"
    when no choice describes the draft)."""
    out: dict[str, Words] = {}
    for control in CONTROLS:
        if control.kind != "choice":
            continue
        if control.seed:
            words = {lang: CONTROL[control.seed].text(draft, lang) for lang in LANGUAGES}
        else:
            name = control.fields[0]
            words = {lang: value_text(name, draft[name], lang) for lang in LANGUAGES}
        out[control.key] = words
    return out
