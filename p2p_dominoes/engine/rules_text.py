"""Rules in words (Russian and English), in the seed's own vocabulary (its "agreements").

Every field and every value has a label; the seed's controls (`CONTROLS`, sketch §1.7) map one
choice onto one or more fields — "When you cannot play: draw until you can play · draw one, then
pass · draw at will" is (`must_draw_when_stuck`, `draw_limit`). The words are the catalogues'
(p2p_dominoes/words, keys ``engine.preset.*``, ``engine.control.*``, ``engine.rules.*``).
`describe_rules` says what a rule set is in plain words: the preset it starts from and every
control that differs (what a joiner reads).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from p2p_dominoes.engine.switches import SWITCH, SWITCHES
from p2p_dominoes.engine.switches.texts import OPENERS
from p2p_dominoes.engine.words import LANGUAGES as LANGUAGES
from p2p_dominoes.engine.words import Said, Text, check_lang
from p2p_dominoes.words import line, plural

FIELD_LABELS: Final[dict[str, Text]] = {s.name: s.label for s in SWITCHES}
"""Every field's label (its record's)."""
VALUE_LABELS: Final[dict[str, Mapping[Any, Text]]] = {
    s.name: s.values for s in SWITCHES if s.values
}
"""The words for each value of every field that lists them (its record's)."""

PRESET_LABELS: Final[dict[str, Text]] = {
    "draw": Said("engine.preset.draw"),
    "draw-until-play": Said("engine.preset.draw_until_play"),
    "block": Said("engine.preset.block"),
    "house": Said("engine.preset.house"),
    "fives": Said("engine.preset.fives"),
    "threes": Said("engine.preset.threes"),
    "threes-luck": Said("engine.preset.threes_luck"),
    "kozel": Said("engine.preset.kozel"),
    "kozel-ceremonies": Said("engine.preset.kozel_ceremonies"),
    "cross": Said("engine.preset.cross"),
    "telephone": Said("engine.preset.telephone"),
    "trains": Said("engine.preset.trains"),
}
"""Each preset's name in words."""


def field_label(name: str, lang: str = "en") -> str:
    """The label of field `name`."""
    return FIELD_LABELS[name](lang)


def preset_label(name: str, lang: str = "en") -> str:
    """A preset's name in words ("Dominoes (the default game)"), or the name itself."""
    label = PRESET_LABELS.get(name)
    return label(lang) if label is not None else name


def value_text(name: str, value: Any, lang: str = "en") -> str:
    """The words for `value` of field `name` (every field, every value; its record's)."""
    check_lang(lang)
    switch = SWITCH.get(name)
    return switch.value_text(value, lang) if switch is not None else str(value)


# --- the seed's controls ---------------------------------------------------------------------


@dataclass(frozen=True)
class Control:
    """One control of the seed's "Settings → Agreements": its label and the fields one choice
    sets."""

    key: str
    """The switch id of the rules study (D2, W1, …), or the field name for the rest."""
    fields: tuple[str, ...]
    label: Text
    text: Callable[[Mapping[str, Any], str], str]
    """The current choice in words."""


def _field_text(name: str) -> Callable[[Mapping[str, Any], str], str]:
    return lambda draft, lang: value_text(name, draft[name], lang)


def _boneyard(draft: Mapping[str, Any], lang: str) -> str:
    has = draft["drawing"] != "never"
    return line("engine.rules.boneyard_yes" if has else "engine.rules.boneyard_no", lang)


def _buy_while_able(draft: Mapping[str, Any], lang: str) -> str:
    return value_text("must_draw_when_stuck", draft["drawing"] == "any-time", lang)


def _when_stuck(draft: Mapping[str, Any], lang: str) -> str:
    must, limit = draft["must_draw_when_stuck"], draft["draw_limit"]
    if not must:
        if limit:
            return line("engine.rules.draw_at_will_limit", lang, limit=limit)
        return line("engine.rules.draw_at_will", lang)
    if limit == 0:
        return line("engine.rules.draw_until", lang)
    if limit == 1:
        return line("engine.rules.draw_one", lang)
    return plural("engine.rules.draw_up_to", limit, lang)


def _opening(draft: Mapping[str, Any], lang: str) -> str:
    first, later = draft["first_opener"], draft["next_opener"]
    if (first, later) == ("lottery", "rotate"):
        return line("engine.rules.opening_lottery", lang)
    if first == later:
        return OPENERS[first](lang)
    one, rest = OPENERS[first](lang), OPENERS[later](lang)
    return line("engine.rules.opening_first", lang, rest=rest, one=one)


def _fallbacks(draft: Mapping[str, Any], lang: str) -> str:
    first = value_text("first_fallback", draft["first_fallback"], lang)
    later = value_text("next_fallback", draft["next_fallback"], lang)
    if first == later:
        return first
    return line("engine.rules.fallback_later", lang, first=first, later=later)


def _who_records(draft: Mapping[str, Any], lang: str) -> str:
    hand, move = draft["hand_scoring"], draft["move_scoring"]
    if move == "none":
        return value_text("hand_scoring", hand, lang)
    if (hand, move, draft["ends_modulus"], draft["ends_award"]) == (
        "leader-takes",
        "ends",
        5,
        "total",
    ):
        return line("engine.rules.fives_ends", lang)
    if (hand, move) == ("none", "placed-tile"):
        return line("engine.rules.placed_tile", lang)
    during = value_text("move_scoring", move, lang)
    end = value_text("hand_scoring", hand, lang)
    return line("engine.rules.during_end", lang, during=during, end=end)


def _goal(draft: Mapping[str, Any], lang: str) -> str:
    goal = draft["goal"]
    if goal == "fixed-hands":
        return line("engine.rules.fixed_hands", lang, count=draft["hands_limit"])
    targets = draft["targets"]
    one = len({t for _, t in targets}) == 1
    target = str(targets[0][1]) if one else line("engine.rules.the_target", lang)
    key = "engine.rules.reach_loses" if goal == "reach-loses" else "engine.rules.reach_wins"
    said = line(key, lang, target=target)
    return said if one else f"{said} ({value_text('targets', targets, lang)})"


_SEVERAL: Final[tuple[tuple[int, Control], ...]] = (
    (30, Control("D3", ("drawing",), Said("engine.control.d3"), _boneyard)),
    (
        40,
        Control(
            "W1",
            ("must_draw_when_stuck", "draw_limit"),
            Said("engine.control.w1"),
            _when_stuck,
        ),
    ),
    (
        60,
        Control(
            "W3",
            ("drawing",),
            Said("engine.control.w3"),
            _buy_while_able,
        ),
    ),
    (
        80,
        Control("O1", ("first_opener", "next_opener"), Said("engine.control.o1"), _opening),
    ),
    (
        90,
        Control(
            "O1-fallback",
            ("first_fallback", "next_fallback"),
            Said("engine.control.o1_fallback"),
            _fallbacks,
        ),
    ),
    (
        190,
        Control(
            "S1",
            ("hand_scoring", "move_scoring", "ends_modulus", "ends_award"),
            Said("engine.control.s1"),
            _who_records,
        ),
    ),
    (230, Control("S5", ("goal", "targets", "hands_limit"), Said("engine.control.s5"), _goal)),
)
"""The controls that set several fields, or one field in the seed's own words, with their
places among the switches' own controls (each switch's record gives its own: `Page`)."""


def _own_controls() -> list[tuple[int, Control]]:
    return [
        (s.page.order, Control(s.page_key, (s.name,), s.label, _field_text(s.name)))
        for s in SWITCHES
        if s.page is not None
    ]


CONTROLS: Final[tuple[Control, ...]] = tuple(
    control for _, control in sorted([*_SEVERAL, *_own_controls()], key=lambda pair: pair[0])
)
"""The controls, in the order of the rules page; every field is set by at least one."""
CONTROL: Final[Mapping[str, Control]] = {c.key: c for c in CONTROLS}


def control_of(name: str) -> Control:
    """The first control that sets field `name`."""
    return next(c for c in CONTROLS if name in c.fields)


def base_of(draft: Mapping[str, Any]) -> str:
    """The preset a rule set starts from: the one it is named after, else the one it differs
    from in the fewest fields."""
    from p2p_dominoes.engine.rules import PRESETS

    if draft.get("name") in PRESETS:
        return str(draft["name"])

    def distance(name: str) -> int:
        other = PRESETS[name].to_dict()
        return sum(1 for key in other if key != "name" and other[key] != draft.get(key))

    return min(PRESETS, key=distance)


def changed_controls(draft: Mapping[str, Any], base: Mapping[str, Any]) -> list[Control]:
    """The controls whose choice in `draft` differs from `base`'s (the name aside)."""
    return [c for c in CONTROLS if c.key != "name" and c.text(draft, "en") != c.text(base, "en")]


def describe_rules(draft: Mapping[str, Any], lang: str = "en") -> list[str]:
    """What `draft` plays, in plain words: the preset it starts from, then one line per control
    whose choice differs from that preset's."""
    from p2p_dominoes.engine.rules import PRESETS

    check_lang(lang)
    base_name = base_of(draft)
    start = preset_label(base_name, lang)
    named = draft["name"]
    if named == base_name:
        head = line("engine.rules.head", lang, start=start)
    else:
        head = line("engine.rules.head_named", lang, named=named, start=start)
    changed = changed_controls(draft, PRESETS[base_name].to_dict())
    lines = [line("engine.rules.unchanged", lang, head=head) if not changed else head + ":"]
    lines += [f"{c.label(lang)}: {c.text(draft, lang)}" for c in changed]
    return lines
