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

from p2p_dominoes.engine.errors import InvalidRecord

LANGUAGES: Final = ("en", "ru")


@dataclass(frozen=True)
class Words:
    """One text in both languages."""

    ru: str
    en: str

    def __call__(self, lang: str) -> str:
        return self.ru if _lang(lang) == "ru" else self.en


def _lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise InvalidRecord(f"unknown language {lang!r} (languages: en, ru)")
    return lang


W = Words

FIELD_LABELS: Final[dict[str, Words]] = {
    "name": W("Название", "Name"),
    "hand_sizes": W("Сколько костей раздавать", "Tiles dealt to each player"),
    "reserve": W(
        "Можно ли забрать последнюю кость с базара", "May the last boneyard tile be taken"
    ),
    "drawing": W(
        "Есть ли базар; можно ли покупать, когда ход и так есть",
        "Is there a boneyard; may you draw while holding a play",
    ),
    "play_drawn_at_once": W(
        "Подходящую взятую кость кладут сразу", "A drawn tile that fits is played at once"
    ),
    "first_opener": W("Правило захода в первой раздаче", "Opening rule of the first hand"),
    "next_opener": W("Правило захода в следующих раздачах", "Opening rule of later hands"),
    "block_scoring": W("Рыба", "Blocked hand"),
    "targets": W("Цель в очках", "Target points"),
    "layout": W("Форма стола", "Table shape"),
    "stall_timeout_s": W("Сколько ждать хода игрока, секунд", "Seconds to wait for a player"),
    "must_draw_when_stuck": W(
        "Кому нечем ходить, обязан прикупать", "A player who cannot play must draw"
    ),
    "draw_limit": W("Сколько костей можно прикупить за ход", "Most tiles drawn in one turn"),
    "forced_draw_sum": W("Прикуп двух, когда концы дают в сумме", "Draw two when the ends total"),
    "first_fallback": W(
        "Запасное правило захода в первой раздаче", "Fallback opening rule of the first hand"
    ),
    "next_fallback": W(
        "Запасное правило захода в следующих раздачах", "Fallback opening rule of later hands"
    ),
    "assigned_double": W("Назначенный дубль", "Assigned double"),
    "weekday": W("День недели", "Day of the week"),
    "doubles": W("Дубли поперёк", "Doubles crosswise"),
    "two_doubles": W("Два дубля за ход", "Two doubles in one turn"),
    "extra_turn_sum": W("Лишний ход, когда концы дают в сумме", "Extra turn when the ends total"),
    "cross_quota": W("Сколько костей до открытия креста", "Tiles before the cross opens"),
    "double_closes_ray": W("Дубль может закрыть луч", "A double can close its ray"),
    "fish_counts": W("Рыба засчитывается", "A blocked hand counts"),
    "end_when_boneyard_empty": W(
        "Партия кончается, когда базар исчерпан", "The hand ends when the boneyard runs out"
    ),
    "teams": W("Игра парами", "Partnerships"),
    "hand_scoring": W("Кто и что записывает в конце партии", "Who records what at the hand's end"),
    "rounding": W("Округление счёта", "Rounding"),
    "min_record": W("Минимум для записи", "Minimum to record"),
    "domino_bonus": W("Надбавка за домино", "Bonus for going out"),
    "block_bonus": W("Надбавка меньшему при рыбе", "Bonus to the lowest hand at a block"),
    "move_scoring": W("Очки по ходу игры", "Points during play"),
    "ends_modulus": W("Концы считаются, когда сумма кратна", "Ends score on a multiple of"),
    "ends_award": W("Сколько дают концы", "What the ends score"),
    "goal": W("Цель", "Goal"),
    "hands_limit": W("Сколько раздач играть", "Hands to play"),
    "target_check": W("Когда проверять цель", "When the target is checked"),
    "general": W("Генерал", "General"),
    "admiral": W("Адмирал", "Admiral"),
    "snotty_goat": W("Сопливый козёл", "Snotty goat"),
    "winner_reset": W("Победитель обнуляется", "The winner's score is wiped"),
}
"""Every field's label."""

_OPENERS: Final = {
    "lottery": W("по жребию, любой костью", "by lot, any tile"),
    "rotate": W("следующий по кругу, любой костью", "the next seat clockwise, any tile"),
    "previous-winner": W("победитель прошлой партии", "the previous hand's winner"),
    "lowest-double": W("младший дубль", "the lowest double"),
    "highest-double": W("старший дубль", "the highest double"),
    "assigned-double": W("назначенный дубль", "the assigned double"),
    "weekday-double": W("очередь по дню недели", "the double of the weekday"),
    "heaviest-tile": W("самая тяжёлая кость", "the heaviest tile"),
}
_YES_NO: Final = {True: W("да", "yes"), False: W("нет", "no")}
_ON_OFF: Final = {True: W("вкл", "on"), False: W("выкл", "off")}

VALUE_LABELS: Final[dict[str, dict[Any, Words]]] = {
    "drawing": {
        "any-time": W(
            "базар есть, покупать можно и при ходе",
            "a boneyard; drawing allowed while holding a play",
        ),
        "when-stuck": W(
            "базар есть, покупать — только когда ходить нечем",
            "a boneyard; draw only when you cannot play",
        ),
        "never": W("базара нет", "no boneyard"),
    },
    "first_opener": _OPENERS,
    "next_opener": _OPENERS,
    "first_fallback": {
        "heaviest-tile": W("самая тяжёлая кость", "the heaviest tile"),
        "lottery": W("по жребию", "by lot"),
        "previous-opener": W("прошлый заходивший", "the previous opener"),
        "rotate": W("следующий по кругу", "the next seat clockwise"),
        "redeal": W("пересдать", "redeal"),
    },
    "block_scoring": {
        "lowest-takes": W("забирает тот, у кого меньше", "the lowest takes"),
        "lowest-takes-difference": W("разница", "the difference"),
        "all-to-worst": W("вся сумма проигравшему", "the whole sum to the loser"),
    },
    "layout": {
        "line": W("в одну линию", "one line"),
        "cross": W("крест (осёл)", "cross (donkey)"),
        "telephone": W("центр (телефон)", "centre (telephone)"),
        "trains": W("поезда", "trains"),
    },
    "doubles": {
        "across": W("вкл (поперёк)", "on (crosswise)"),
        "along": W("выкл (вдоль, как любая кость)", "off (lengthwise, like any tile)"),
        "choice": W("по выбору игрока", "the player's choice"),
    },
    "teams": {
        "none": W("нет, каждый за себя", "no, each for themself"),
        "opposite-pairs": W("пары, партнёры напротив", "pairs, partners opposite"),
    },
    "hand_scoring": {
        "losers-own": W("проигравшие пишут свои очки", "the losers record their own pips"),
        "worst-own": W("пишет только худший", "only the worst records"),
        "leader-takes": W("забирает лидер", "the leader takes"),
        "none": W("ничего", "nothing"),
        "luck-settlement": W("расчёт «на счастье»", "the threes-for-luck settlement"),
    },
    "move_scoring": {
        "none": W("нет", "nothing"),
        "ends": W("свободные концы", "the open ends"),
        "placed-tile": W("очки выложенной кости", "the pips of the tile laid"),
        "luck": W("«на счастье»", "threes for luck"),
    },
    "ends_award": {
        "quotient": W("сумма, делённая на кратность", "the total divided by the multiple"),
        "total": W("вся сумма", "the whole total"),
    },
    "goal": {
        "reach-loses": W("дойти — проиграть (классика)", "reach it and lose (the classic)"),
        "reach-wins": W("дойти — выиграть", "reach it and win"),
        "fixed-hands": W("фиксированное число раздач", "a fixed number of hands"),
    },
    "target_check": {
        "hand-end": W("в конце раздачи", "at the end of the hand"),
        "immediate": W("сразу, посреди раздачи", "at once, mid-hand"),
    },
    "rounding": {1: W("нет", "none"), 5: W("до 5", "to 5"), 10: W("до 10", "to 10")},
    "play_drawn_at_once": _YES_NO,
    "must_draw_when_stuck": _YES_NO,
    "two_doubles": _ON_OFF,
    "double_closes_ray": _ON_OFF,
    "fish_counts": _ON_OFF,
    "end_when_boneyard_empty": _ON_OFF,
    "general": _ON_OFF,
    "admiral": _ON_OFF,
    "snotty_goat": _ON_OFF,
    "winner_reset": _ON_OFF,
}
VALUE_LABELS["next_fallback"] = VALUE_LABELS["first_fallback"]

_WEEKDAYS: Final = (
    W("не задан", "not set"),
    W("понедельник", "Monday"),
    W("вторник", "Tuesday"),
    W("среда", "Wednesday"),
    W("четверг", "Thursday"),
    W("пятница", "Friday"),
    W("суббота", "Saturday"),
    W("воскресенье", "Sunday"),
)
_PLAYERS: Final = {
    2: W("вдвоём", "2 players"),
    3: W("втроём", "3 players"),
    4: W("вчетвером", "4 players"),
}

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
    """The words for `value` of field `name` (every field, every value)."""
    ru = _lang(lang) == "ru"
    labels = VALUE_LABELS.get(name, {})
    key = value if not isinstance(value, list) else None
    if key is not None and key in labels:
        return labels[key](lang)
    if name == "hand_sizes":
        return _per_count(value, lang, lambda size: f"по {size}" if ru else f"{size} each")
    if name == "targets":
        if not value:
            return "нет" if ru else "none"
        return _per_count(value, lang, str)
    if name == "reserve":
        if value == 0:
            return "да" if ru else "yes"
        if value == 1:
            return "нет" if ru else "no"
        return f"нет (последние {value} не берут)" if ru else f"no (the last {value} stay)"
    if name == "draw_limit":
        if value == 0:
            return "без предела" if ru else "no limit"
        return f"до {value}" if ru else f"up to {value}"
    if name in ("forced_draw_sum", "extra_turn_sum"):
        return ("выкл" if ru else "off") if value == 0 else str(value)
    if name == "assigned_double":
        return f"{value}:{value}"
    if name == "weekday":
        return _WEEKDAYS[value](lang) if 0 <= value <= 7 else str(value)
    if name == "min_record":
        if value == 0:
            return "нет" if ru else "none"
        if value == 13:
            return "13 (правило козла)" if ru else "13 (the Kozel rule)"
        return str(value)
    if name == "hands_limit":
        return ("не задано" if ru else "not set") if value == 0 else str(value)
    if name == "stall_timeout_s":
        return f"{value} с" if ru else f"{value} s"
    if name in ("domino_bonus", "block_bonus"):
        return ("нет" if ru else "none") if value == 0 else f"+{value}"
    return str(value)


def _per_count(pairs: Any, lang: str, text: Callable[[int], str]) -> str:
    values = {number for _, number in pairs}
    if len(values) == 1 and len(pairs) > 1:
        counts = ", ".join(_PLAYERS[n](lang) if n in _PLAYERS else str(n) for n, _ in pairs)
        return f"{text(next(iter(values)))} ({counts})"
    return " · ".join(
        f"{_PLAYERS[n](lang) if n in _PLAYERS else n}: {text(number)}" for n, number in pairs
    )


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
        return _OPENERS[first](lang)
    one, rest = _OPENERS[first](lang), _OPENERS[later](lang)
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


def _one(key: str, name: str) -> Control:
    return Control(key, (name,), FIELD_LABELS[name], _field_text(name))


CONTROLS: Final[tuple[Control, ...]] = (
    _one("name", "name"),
    _one("D2", "hand_sizes"),
    Control("D3", ("drawing",), W("Есть ли базар", "Is there a boneyard"), _boneyard),
    Control(
        "W1",
        ("must_draw_when_stuck", "draw_limit"),
        W("Если ходить нечем", "When you cannot play"),
        _when_stuck,
    ),
    _one("W2", "reserve"),
    Control(
        "W3",
        ("drawing",),
        W("Можно ли покупать, когда ход и так есть", "May you draw while holding a play"),
        _buy_while_able,
    ),
    _one("play_drawn_at_once", "play_drawn_at_once"),
    Control("O1", ("first_opener", "next_opener"), W("Правило захода", "Opening rule"), _opening),
    Control(
        "O1-fallback",
        ("first_fallback", "next_fallback"),
        W("Запасное правило захода", "Fallback opening rule"),
        _fallbacks,
    ),
    _one("O2", "assigned_double"),
    _one("weekday", "weekday"),
    _one("T1", "doubles"),
    _one("T2", "two_doubles"),
    _one("X1", "double_closes_ray"),
    _one("X2", "extra_turn_sum"),
    _one("X3", "forced_draw_sum"),
    _one("E1", "fish_counts"),
    _one("end_when_boneyard_empty", "end_when_boneyard_empty"),
    Control(
        "S1",
        ("hand_scoring", "move_scoring", "ends_modulus", "ends_award"),
        W("Кто и что записывает", "Who records what"),
        _who_records,
    ),
    _one("S2", "block_scoring"),
    _one("S3", "rounding"),
    _one("S4", "min_record"),
    Control("S5", ("goal", "targets", "hands_limit"), W("Цель", "Goal"), _goal),
    _one("target_check", "target_check"),
    _one("domino_bonus", "domino_bonus"),
    _one("block_bonus", "block_bonus"),
    _one("F1", "layout"),
    _one("F2", "cross_quota"),
    _one("K0", "teams"),
    _one("C1", "general"),
    _one("C2", "admiral"),
    _one("C3", "snotty_goat"),
    _one("C4", "winner_reset"),
    _one("stall_timeout_s", "stall_timeout_s"),
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

    ru = _lang(lang) == "ru"
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
