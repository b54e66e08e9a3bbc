"""The house-rules editor's controls: every playable switch, in the rules page's own words.

Each control names the fields it sets and, for a choice, what each choice sets and which values
it stands for (seed 003's «Договорённости»: «Если ходить нечем: до хода · одну кость и пас ·
прикуп по желанию» is one control over two fields). A draft no choice describes shows "other".
The words are engine/rules_text.py's (the same labels as `rules show` and the rules screen).
This is data for the page (`form()` is JSON); the page never decides what is allowed: it sends
the draft to the peer, which runs `check_rules` (ui/web/rules_api.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from p2p_dominoes.engine.rules import FIELD, FIELDS, HOUSE
from p2p_dominoes.engine.rules_text import CONTROL, FIELD_LABELS, LANGUAGES, value_text

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


def _w(ru: str, en: str) -> Words:
    return {"ru": ru, "en": en}


GROUPS: Final[tuple[tuple[str, Words], ...]] = (
    ("deal", _w("Раздача и базар", "The deal and the boneyard")),
    ("opening", _w("Заход", "Who leads")),
    ("play", _w("Ход", "Playing")),
    ("scoring", _w("Счёт и конец партии", "Scoring and the end of a hand")),
    ("match", _w("Матч", "The match")),
    ("kozel", _w("Козёл: пары и старые церемонии", "Kozel: pairs and the old ceremonies")),
    ("table", _w("Стол", "The table")),
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


def _one(key: str, group: str, kind: ControlKind, hint: Words | None = None) -> Control:
    """A control for one field under its own label; a choice offers every value played."""
    spec = FIELD[key]
    values: Sequence[Any] = ()
    if kind == "choice":
        values = spec.choices or spec.int_choices or range(spec.low or 0, (spec.high or 0) + 1)
    return Control(key, group, kind, (key,), _label(key), _values(key, values), hint)


CONTROLS: Final[tuple[Control, ...]] = (
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
    _one("draw_limit", "deal", "number"),
    Control(
        "reserve", "deal", "choice", ("reserve",), _label("reserve"), _values("reserve", (0, 1, 2))
    ),
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
    _one("play_drawn_at_once", "deal", "bool"),
    _one("first_opener", "opening", "choice"),
    _one(
        "first_fallback",
        "opening",
        "choice",
        _w(
            "Когда основное правило никого не называет (нужного дубля нет ни у кого).",
            "When the main rule names nobody (nobody holds the double).",
        ),
    ),
    _one("next_opener", "opening", "choice"),
    _one("next_fallback", "opening", "choice"),
    _one("assigned_double", "opening", "choice"),
    _one("weekday", "opening", "choice"),
    _one("layout", "play", "choice"),
    _one("cross_quota", "play", "number"),
    _one("doubles", "play", "choice"),
    _one("two_doubles", "play", "bool"),
    _one("double_closes_ray", "play", "bool"),
    _one("extra_turn_sum", "play", "number", _w("0 — выкл.", "0: off.")),
    _one("forced_draw_sum", "play", "number", _w("0 — выкл.", "0: off.")),
    Control(
        "hand_scoring",
        "scoring",
        "choice",
        ("hand_scoring",),
        _seed("S1"),
        _values("hand_scoring", FIELD["hand_scoring"].choices),
    ),
    _one("fish_counts", "scoring", "bool"),
    _one("block_scoring", "scoring", "choice"),
    _one("rounding", "scoring", "choice"),
    _one(
        "min_record",
        "scoring",
        "number",
        _w("0 — нет; 13 — правило козла.", "0: none; 13: the Kozel rule."),
    ),
    _one("end_when_boneyard_empty", "scoring", "bool"),
    _one("move_scoring", "scoring", "choice"),
    _one("ends_modulus", "scoring", "number"),
    _one("ends_award", "scoring", "choice"),
    _one("domino_bonus", "scoring", "number"),
    _one("block_bonus", "scoring", "number"),
    _one("goal", "match", "choice"),
    _one("hands_limit", "match", "number"),
    _one("target_check", "match", "choice"),
    _one("teams", "kozel", "choice"),
    _one("general", "kozel", "bool"),
    _one("admiral", "kozel", "bool"),
    _one("snotty_goat", "kozel", "bool"),
    _one("winner_reset", "kozel", "bool"),
    _one("stall_timeout_s", "table", "number"),
)

OTHER: Final[Words] = _w("другое", "other")


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
