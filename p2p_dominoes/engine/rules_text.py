"""Rules in words (Russian and English), in the seed's own vocabulary («Договорённости»).

Every field and every value has a label; the seed's controls (`CONTROLS`, sketch §1.7) map one
choice onto one or more fields — «Если ходить нечем: до хода · одну кость и пас · прикуп по
желанию» is (`must_draw_when_stuck`, `draw_limit`). `describe_rules` says what a rule set is in
plain words: the preset it starts from and every control that differs (what a joiner reads).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from p2p_dominoes.engine.switches import SWITCH, SWITCHES
from p2p_dominoes.engine.switches.texts import OPENERS
from p2p_dominoes.engine.words import LANGUAGES as LANGUAGES
from p2p_dominoes.engine.words import W, Words, check_lang

FIELD_LABELS: Final[dict[str, Words]] = {s.name: s.label for s in SWITCHES}
"""Every field's label (its record's)."""
VALUE_LABELS: Final[dict[str, Mapping[Any, Words]]] = {
    s.name: s.values for s in SWITCHES if s.values
}
"""The words for each value of every field that lists them (its record's)."""

PRESET_LABELS: Final[dict[str, Words]] = {
    "draw": W("Домино с базаром (по Pagat)", "Draw dominoes (as Pagat has it)"),
    "draw-until-play": W("Прикуп до хода", "Draw until you can play"),
    "block": W("Без базара", "Block dominoes (no drawing)"),
    "house": W("Домино (по умолчанию)", "Dominoes (the default game)"),
    "fives": W("Пятерное домино", "Fives"),
    "threes": W("Тройное домино", "Threes"),
    "threes-luck": W("Тройное домино на счастье", "Threes for luck"),
    "kozel": W("Козёл", "Kozel (the goat)"),
    "kozel-ceremonies": W("Козёл со старыми церемониями", "Kozel with the old ceremonies"),
    "cross": W("Крест (Осёл)", "The cross (Donkey)"),
    "telephone": W("Центр (Телефон)", "The telephone"),
    "trains": W("Поезда", "Trains"),
}


def field_label(name: str, lang: str = "en") -> str:
    """The label of field `name`."""
    return FIELD_LABELS[name](lang)


def preset_label(name: str, lang: str = "en") -> str:
    """A preset's name in words («Домино (по умолчанию)»), or the name itself."""
    words = PRESET_LABELS.get(name)
    return words(lang) if words is not None else name


def value_text(name: str, value: Any, lang: str = "en") -> str:
    """The words for `value` of field `name` (every field, every value; its record's)."""
    check_lang(lang)
    switch = SWITCH.get(name)
    return switch.value_text(value, lang) if switch is not None else str(value)


# --- the seed's controls ---------------------------------------------------------------------


@dataclass(frozen=True)
class Control:
    """One control of «Настройки → Договорённости»: its label and the fields one choice sets."""

    key: str
    """The switch id of the rules study (D2, W1, …), or the field name for the rest."""
    fields: tuple[str, ...]
    label: Words
    text: Callable[[Mapping[str, Any], str], str]
    """The current choice in words."""


def _field_text(name: str) -> Callable[[Mapping[str, Any], str], str]:
    return lambda draft, lang: value_text(name, draft[name], lang)


def _boneyard(draft: Mapping[str, Any], lang: str) -> str:
    has = draft["drawing"] != "never"
    return ("есть" if has else "нет") if lang == "ru" else ("yes" if has else "no")


def _buy_while_able(draft: Mapping[str, Any], lang: str) -> str:
    return value_text("must_draw_when_stuck", draft["drawing"] == "any-time", lang)


def _when_stuck(draft: Mapping[str, Any], lang: str) -> str:
    must, limit = draft["must_draw_when_stuck"], draft["draw_limit"]
    ru = lang == "ru"
    if not must:
        text = "прикуп по желанию" if ru else "draw at will"
        if limit:
            text += f" (до {limit} за ход)" if ru else f" (up to {limit} a turn)"
        return text
    if limit == 0:
        return "прикуп до хода" if ru else "draw until you can play"
    if limit == 1:
        return "одну кость и пас" if ru else "draw one, then pass"
    return f"до {limit} костей, потом пас" if ru else f"up to {limit} tiles, then pass"


def _opening(draft: Mapping[str, Any], lang: str) -> str:
    first, later = draft["first_opener"], draft["next_opener"]
    ru = lang == "ru"
    if (first, later) == ("lottery", "rotate"):
        return (
            "любая кость (первого по жребию, дальше по кругу)"
            if ru
            else "any tile (the first opener by lot, then clockwise)"
        )
    if first == later:
        return OPENERS[first](lang)
    one, rest = OPENERS[first](lang), OPENERS[later](lang)
    return f"{rest} (первую раздачу — {one})" if ru else f"{rest} (the first hand: {one})"


def _fallbacks(draft: Mapping[str, Any], lang: str) -> str:
    first = value_text("first_fallback", draft["first_fallback"], lang)
    later = value_text("next_fallback", draft["next_fallback"], lang)
    if first == later:
        return first
    return f"{first}; дальше — {later}" if lang == "ru" else f"{first}; later hands: {later}"


def _who_records(draft: Mapping[str, Any], lang: str) -> str:
    hand, move = draft["hand_scoring"], draft["move_scoring"]
    ru = lang == "ru"
    if move == "none":
        return value_text("hand_scoring", hand, lang)
    if (hand, move, draft["ends_modulus"], draft["ends_award"]) == (
        "leader-takes",
        "ends",
        5,
        "total",
    ):
        return "свободные концы по пять" if ru else "open ends in fives"
    if (hand, move) == ("none", "placed-tile"):
        return "очки выложенной кости" if ru else "the pips of the tile laid"
    during = value_text("move_scoring", move, lang)
    end = value_text("hand_scoring", hand, lang)
    return (
        f"по ходу — {during}; в конце — {end}" if ru else f"during play {during}; at the end {end}"
    )


def _goal(draft: Mapping[str, Any], lang: str) -> str:
    goal = draft["goal"]
    ru = lang == "ru"
    if goal == "fixed-hands":
        count = draft["hands_limit"]
        return f"фиксированное число раздач: {count}" if ru else f"a fixed number of hands: {count}"
    targets = draft["targets"]
    one = len({t for _, t in targets}) == 1
    target = str(targets[0][1]) if one else ("цели" if ru else "the target")
    words = (
        (f"дойти до {target} — проиграть" if ru else f"reach {target} and lose")
        if goal == "reach-loses"
        else (f"дойти до {target} — выиграть" if ru else f"reach {target} and win")
    )
    return words if one else f"{words} ({value_text('targets', targets, lang)})"


_SEVERAL: Final[tuple[tuple[int, Control], ...]] = (
    (30, Control("D3", ("drawing",), W("Есть ли базар", "Is there a boneyard"), _boneyard)),
    (
        40,
        Control(
            "W1",
            ("must_draw_when_stuck", "draw_limit"),
            W("Если ходить нечем", "When you cannot play"),
            _when_stuck,
        ),
    ),
    (
        60,
        Control(
            "W3",
            ("drawing",),
            W("Можно ли покупать, когда ход и так есть", "May you draw while holding a play"),
            _buy_while_able,
        ),
    ),
    (
        80,
        Control(
            "O1", ("first_opener", "next_opener"), W("Правило захода", "Opening rule"), _opening
        ),
    ),
    (
        90,
        Control(
            "O1-fallback",
            ("first_fallback", "next_fallback"),
            W("Запасное правило захода", "Fallback opening rule"),
            _fallbacks,
        ),
    ),
    (
        190,
        Control(
            "S1",
            ("hand_scoring", "move_scoring", "ends_modulus", "ends_award"),
            W("Кто и что записывает", "Who records what"),
            _who_records,
        ),
    ),
    (230, Control("S5", ("goal", "targets", "hands_limit"), W("Цель", "Goal"), _goal)),
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

    ru = check_lang(lang) == "ru"
    base_name = base_of(draft)
    start = preset_label(base_name, lang)
    named = draft["name"]
    if named == base_name:
        head = f"Правила: {start}" if ru else f"Rules: {start}"
    else:
        head = (
            f"Правила «{named}», на основе: {start}"
            if ru
            else f"Rules {named!r}, based on: {start}"
        )
    changed = changed_controls(draft, PRESETS[base_name].to_dict())
    lines = [head + (" — без изменений" if ru else ", unchanged") if not changed else head + ":"]
    lines += [f"{c.label(lang)}: {c.text(draft, lang)}" for c in changed]
    return lines
