"""The house-rules editor's controls: every playable switch, in the rules page's own words.

Each control names the fields it sets and, for a choice, what each choice sets and which values
it stands for (seed 003's «Договорённости»: «Если ходить нечем: до хода · одну кость и пас ·
прикуп по желанию» is one control over two fields). A draft no choice describes shows "other".
This is data for the page (`form()` is JSON); the page never decides what is allowed: it sends
the draft to the peer, which runs `check_rules` (ui/web/rules_api.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from p2p_dominoes.engine.rules import FIELD, FIELDS

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

    def choice_of(self, draft: Mapping[str, Any]) -> int | None:
        """The index of the choice that describes `draft`, or None ("other")."""
        return next((i for i, c in enumerate(self.choices) if c.describes(draft)), None)


def _w(ru: str, en: str) -> Words:
    return {"ru": ru, "en": en}


def _pick(name: str, options: Sequence[tuple[Any, str, str]]) -> tuple[Choice, ...]:
    return tuple(Choice(_w(ru, en), {name: value}) for value, ru, en in options)


GROUPS: Final[tuple[tuple[str, Words], ...]] = (
    ("deal", _w("Раздача и базар", "The deal and the boneyard")),
    ("opening", _w("Заход", "Who leads")),
    ("play", _w("Ход", "Playing")),
    ("scoring", _w("Счёт и конец партии", "Scoring and the end of a hand")),
    ("match", _w("Матч", "The match")),
    ("table", _w("Стол", "The table")),
)

_OPENERS: Final = (
    ("lowest-double", "младший дубль", "the lowest double"),
    ("highest-double", "старший дубль", "the highest double"),
    ("assigned-double", "назначенный дубль", "the assigned double"),
    ("heaviest-tile", "самая тяжёлая кость", "the heaviest tile"),
    ("lottery", "любая кость (по жребию)", "any tile (by lot)"),
    ("weekday-double", "очередь по дню недели", "the double of the weekday"),
)
_NEXT_OPENERS: Final = (
    *_OPENERS[:5],
    ("rotate", "любая кость (по очереди)", "any tile (in turn round the table)"),
    ("previous-winner", "победитель прошлой партии", "the winner of the last hand"),
    _OPENERS[5],
)
_FALLBACKS: Final = (
    ("heaviest-tile", "самая тяжёлая кость", "the heaviest tile"),
    ("lottery", "по жребию", "by lot"),
    ("redeal", "пересдать", "deal again"),
)
_NEXT_FALLBACKS: Final = (
    *_FALLBACKS[:2],
    ("previous-opener", "заходит прошлый заходивший", "the last hand's opener again"),
    ("rotate", "по очереди", "in turn round the table"),
    _FALLBACKS[2],
)
_WEEKDAYS: Final = (
    (0, "не выбран", "not chosen"),
    (1, "понедельник (1:1)", "Monday (1:1)"),
    (2, "вторник (2:2)", "Tuesday (2:2)"),
    (3, "среда (3:3)", "Wednesday (3:3)"),
    (4, "четверг (4:4)", "Thursday (4:4)"),
    (5, "пятница (5:5)", "Friday (5:5)"),
    (6, "суббота (6:6)", "Saturday (6:6)"),
    (7, "воскресенье (0:0)", "Sunday (0:0)"),
)

CONTROLS: Final[tuple[Control, ...]] = (
    Control(
        "counts", "deal", "counts", ("hand_sizes", "targets"),
        _w("Сколько игроков · сколько костей раздавать · до скольких очков",
           "Players · tiles dealt to each · points to reach"),
    ),
    Control(
        "boneyard", "deal", "choice", ("drawing",), _w("Есть ли базар", "Is there a boneyard"),
        (
            Choice(_w("есть", "yes"), {"drawing": "when-stuck"},
                   {"drawing": ("when-stuck", "any-time")}),
            Choice(_w("нет", "no"), {"drawing": "never"}),
        ),
    ),
    Control(
        "stuck", "deal", "choice", ("must_draw_when_stuck", "draw_limit"),
        _w("Если ходить нечем", "When you cannot play"),
        (
            Choice(_w("прикуп до хода", "draw until you can play"),
                   {"must_draw_when_stuck": True, "draw_limit": 0}),
            Choice(_w("одну кость и пас", "draw one, then pass"),
                   {"must_draw_when_stuck": True, "draw_limit": 1}),
            Choice(_w("прикуп по желанию", "draw if you like, or pass"),
                   {"must_draw_when_stuck": False, "draw_limit": 0},
                   {"must_draw_when_stuck": (False,)}),
        ),
    ),
    Control(
        "draw_limit", "deal", "number", ("draw_limit",),
        _w("Больше скольких костей за ход не брать (0 — без предела)",
           "Most tiles drawn in one turn (0: no limit)"),
    ),
    Control(
        "last_tile", "deal", "choice", ("reserve",),
        _w("Можно ли забрать последнюю кость с базара",
           "May the last boneyard tile be taken"),
        _pick("reserve", ((0, "да", "yes"), (1, "нет", "no"),
                          (2, "нет (две последние остаются)", "no (the last two stay)"))),
    ),
    Control(
        "buy_anyway", "deal", "choice", ("drawing",),
        _w("Можно ли покупать, когда ход и так есть", "May you draw while you hold a play"),
        _pick("drawing", (("any-time", "да", "yes"), ("when-stuck", "нет", "no"))),
    ),
    Control(
        "play_drawn", "deal", "bool", ("play_drawn_at_once",),
        _w("Взятая подходящая кость идёт в игру сразу",
           "A drawn tile that fits must be played at once"),
    ),
    Control(
        "first_opener", "opening", "choice", ("first_opener",),
        _w("Правило захода: первая партия", "Who leads the first hand"),
        _pick("first_opener", _OPENERS),
    ),
    Control(
        "first_fallback", "opening", "choice", ("first_fallback",),
        _w("Запасное правило: первая партия", "Fallback for the first hand"),
        _pick("first_fallback", _FALLBACKS),
        _w("Когда основное правило никого не называет (нужного дубля нет ни у кого).",
           "When the main rule names nobody (nobody holds the double)."),
    ),
    Control(
        "next_opener", "opening", "choice", ("next_opener",),
        _w("Правило захода: следующие партии", "Who leads the later hands"),
        _pick("next_opener", _NEXT_OPENERS),
    ),
    Control(
        "next_fallback", "opening", "choice", ("next_fallback",),
        _w("Запасное правило: следующие партии", "Fallback for the later hands"),
        _pick("next_fallback", _NEXT_FALLBACKS),
    ),
    Control(
        "assigned_double", "opening", "choice", ("assigned_double",),
        _w("Назначенный дубль", "The assigned double"),
        _pick("assigned_double", tuple((d, f"{d}:{d}", f"{d}:{d}") for d in range(7))),
    ),
    Control(
        "weekday", "opening", "choice", ("weekday",),
        _w("День недели стола", "The table's day of the week"),
        _pick("weekday", _WEEKDAYS),
    ),
    Control(
        "doubles", "play", "choice", ("doubles",), _w("Дубли поперёк", "Doubles crosswise"),
        _pick("doubles", (("across", "вкл", "on"), ("along", "выкл (вдоль)", "off (lengthwise)"))),
    ),
    Control("two_doubles", "play", "bool", ("two_doubles",),
            _w("Два дубля за ход", "Two doubles in one turn")),
    Control("double_closes_ray", "play", "bool", ("double_closes_ray",),
            _w("Дубль может закрыть луч", "A double may close its ray")),
    Control(
        "extra_turn_sum", "play", "number", ("extra_turn_sum",),
        _w("Лишний ход, когда концы дают в сумме N (0 — выкл)",
           "Extra turn when the open ends total N (0: off)"),
    ),
    Control(
        "forced_draw_sum", "play", "number", ("forced_draw_sum",),
        _w("Прикуп двух, когда концы дают в сумме N (0 — выкл)",
           "Next player draws two when the open ends total N (0: off)"),
    ),
    Control(
        "hand_scoring", "scoring", "choice", ("hand_scoring",),
        _w("Кто и что записывает", "Who records what"),
        _pick("hand_scoring", (
            ("losers-own", "проигравшие пишут свои очки", "the losers record their own pips"),
            ("worst-own", "пишет только худший", "only the worst hand records"),
            ("leader-takes", "забирает лидер", "the winner takes the others' pips"),
        )),
    ),
    Control("fish_counts", "scoring", "bool", ("fish_counts",),
            _w("Рыба засчитывается", "A blocked hand counts")),
    Control(
        "block_scoring", "scoring", "choice", ("block_scoring",), _w("Рыба", "A blocked hand"),
        _pick("block_scoring", (
            ("lowest-takes", "забирает тот, у кого меньше", "the lowest hand takes the pips"),
            ("lowest-takes-difference", "разница", "the lowest hand takes the difference"),
            ("all-to-worst", "вся сумма проигравшему", "the whole sum to the loser"),
        )),
    ),
    Control(
        "rounding", "scoring", "choice", ("rounding",), _w("Округление счёта", "Rounding"),
        _pick("rounding", ((1, "нет", "none"), (5, "до 5", "to 5"), (10, "до 10", "to 10"))),
    ),
    Control(
        "min_record", "scoring", "number", ("min_record",),
        _w("Минимум для записи (0 — нет, 13 — правило козла)",
           "Least amount recorded (0: none, 13: the Kozel rule)"),
    ),
    Control(
        "goal", "match", "choice", ("goal",), _w("Цель", "The goal"),
        _pick("goal", (
            ("reach-loses", "дойти — проиграть", "reach the target and lose"),
            ("reach-wins", "дойти — выиграть", "reach the target and win"),
            ("fixed-hands", "фиксированное число раздач", "a fixed number of hands"),
        )),
    ),
    Control("hands_limit", "match", "number", ("hands_limit",),
            _w("Сколько раздач играть", "Hands to play")),
    Control("stall_timeout_s", "table", "number", ("stall_timeout_s",),
            _w("Сколько секунд ждать хода игрока", "Seconds to wait for a player's move")),
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


def value_words(name: str, draft: Mapping[str, Any]) -> Words:
    """The value of field `name` in `draft` in the editor's words (for the rules screen)."""
    value = draft[name]
    if name in ("hand_sizes", "targets"):
        text = ", ".join(f"{n}: {v}" for n, v in value)
        return _w(text or "—", text or "—")
    for control in CONTROLS:
        if control.fields == (name,) and control.kind == "choice":
            index = control.choice_of(draft)
            if index is not None:
                return control.choices[index].words
        if control.fields == (name,) and control.kind == "bool":
            return _w("да", "yes") if value else _w("нет", "no")
    return _w(str(value), str(value))
