"""No-effect rows (N1–N21, the sketch's §2.3): a switch that changes nothing in the assembled
game is greyed, saying why (for every supported player count), or noted (for some)."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.rule_fields import (
    DOUBLE_RULES,
    Drawing,
    Goal,
    HandScoring,
    Layout,
    MoveScoring,
    Opener,
)
from p2p_dominoes.engine.rules_check.draft import END_TOTAL_SCORING, NEVER_FAILING, Draft
from p2p_dominoes.engine.rules_check.rows import Hit, Say, row, when

_DRAW_SWITCHES: Final = (
    "drawing",
    "must_draw_when_stuck",
    "draw_limit",
    "reserve",
    "play_drawn_at_once",
    "forced_draw_sum",
    "end_when_boneyard_empty",
    "fish_counts",
)
"""The switches that only matter with a boneyard (N1)."""


@row(
    "inert",
    "N1",
    _DRAW_SWITCHES,
    doc="no boneyard at the count (`drawing = never`, the whole set dealt, or the rest is the "
    "reserve); the switch that caused it (`drawing` or `reserve`) stays live",
    ru="Базара нет — прикупать нечего (при {players} игроках {why}).",
    en="No boneyard: nothing to draw (with {players} players {why}).",
)
def _n1(d: Draft, n: int) -> Hit | None:
    if d.drawable(n) > 0:
        return None
    said = set() if d.b("fish_counts") else {"fish_counts"}  # N21 says why
    if d.s("drawing") == Drawing.NEVER:
        # `drawing` is the switch that removed the boneyard: it stays live.
        why = Say("базара нет по правилам", "the rules have none")
        skip = {"drawing"}
    elif d.full_deal(n):
        why = Say("весь набор на руках", "the whole set is dealt")
        skip = set()
    else:
        why = Say("остаток — запас, который не берут", "the rest is the reserve, never drawn")
        skip = {"reserve"}
    return Hit(tuple(f for f in _DRAW_SWITCHES if f not in skip | said), {"why": why})


@row(
    "inert",
    "N2",
    ("play_drawn_at_once",),
    doc="a boneyard, `drawing = when-stuck` and `forced_draw_sum = 0`",
    ru="Брать можно, только когда ходить нечем, — подходящая взятая кость и так единственный ход.",
    en="You draw only when you cannot play, so a drawn tile that fits is your only play anyway.",
)
def _n2(d: Draft, n: int) -> Hit | None:
    return when(
        d.drawable(n) > 0 and d.s("drawing") == Drawing.WHEN_STUCK and d.i("forced_draw_sum") == 0
    )


@row(
    "inert",
    "N3",
    ("cross_quota",),
    doc="`layout ≠ cross`",
    ru="Только для креста: у линии и поездов боковых лучей нет, у телефона они открыты сразу.",
    en="Cross only: a line and trains have no side rays, and telephone opens them at once.",
    each_count=False,
)
def _n3(d: Draft, n: int) -> Hit | None:
    return when(d.s("layout") != Layout.CROSS)


@row(
    "inert",
    "N4",
    ("assigned_double",),
    doc="no opener is `assigned-double`",
    ru="Дубль назначает только правило «назначенный дубль».",
    en="Only the 'assigned double' rule uses it.",
    each_count=False,
)
def _n4(d: Draft, n: int) -> Hit | None:
    return when(not d.uses_opener(Opener.ASSIGNED_DOUBLE))


@row(
    "inert",
    "N5",
    ("weekday",),
    doc="no opener is `weekday-double`",
    ru="День недели нужен только правилу «очередь по дню недели».",
    en="Only the weekday rule uses it.",
    each_count=False,
)
def _n5(d: Draft, n: int) -> Hit | None:
    return when(not d.uses_opener(Opener.WEEKDAY_DOUBLE))


@row(
    "inert",
    "N6",
    ("first_fallback", "next_fallback"),
    doc="that hand's opener never fails (`lottery`, `rotate`, `heaviest-tile`), or is a double "
    "rule with the whole set dealt at the count",
    ru="Основное правило применимо всегда ({why}).",
    en="The main rule always applies ({why}).",
)
def _n6(d: Draft, n: int) -> list[Hit]:
    hits = []
    for _, rule, fallback_field, _ in d.openers():
        if rule in NEVER_FAILING:
            why = Say("оно всегда называет заходящего", "it always names an opener")
        elif rule in DOUBLE_RULES and d.full_deal(n):
            why = Say(
                "раздаётся весь набор — нужный дубль всегда у кого-то на руках",
                "the whole set is dealt, so the double is always in someone's hand",
            )
        else:
            continue
        hits.append(Hit((fallback_field,), {"why": why}))
    return hits


@row(
    "inert",
    "N7",
    ("winner_reset",),
    doc="`general`, `admiral`, `snotty_goat` all off",
    ru="Ни одной церемонии — обнулять не после чего.",
    en="No ceremony is on, so nothing triggers the reset.",
    each_count=False,
)
def _n7(d: Draft, n: int) -> Hit | None:
    return when(not (d.b("general") or d.b("admiral") or d.b("snotty_goat")))


@row(
    "inert",
    "N8",
    ("doubles",),
    doc="`layout` line or trains, nothing reads the end total (`move_scoring` ends/luck, "
    "`extra_turn_sum`, `forced_draw_sum`) (the donkey rule closes a double's ray whichever "
    "way it lies)",
    ru="В линии и в поездах положение дубля ни на что не влияет, пока сумма концов не считается.",
    en="In a line or trains a double's orientation changes nothing unless the end total counts.",
    each_count=False,
)
def _n8(d: Draft, n: int) -> Hit | None:
    # The donkey rule closes a double's ray whichever way the double lies.
    return when(d.s("layout") in (Layout.LINE, Layout.TRAINS) and not d.reads_end_total)


@row(
    "inert",
    "N9",
    ("rounding", "min_record", "block_scoring"),
    doc="`hand_scoring` none or luck-settlement",
    ru="Итога партии по очкам на руках нет — очки идут по ходу игры.",
    en="There is no end-of-hand pip amount: points come during play.",
    each_count=False,
)
def _n9(d: Draft, n: int) -> Hit | None:
    return when(d.s("hand_scoring") in (HandScoring.NONE, HandScoring.LUCK_SETTLEMENT))


@row(
    "inert",
    "N10",
    ("block_scoring", "block_bonus"),
    doc="`fish_counts = false`, `end_when_boneyard_empty = false` and a boneyard at the count",
    ru="Рыба не засчитывается — её пересдают (при {players} игроках).",
    en="Blocked hands do not count: they are redealt (with {players} players).",
)
def _n10(d: Draft, n: int) -> Hit | None:
    redealt = not d.b("fish_counts") and not d.b("end_when_boneyard_empty")
    return when(redealt and d.drawable(n) > 0)  # without a boneyard a block counts (N21)


@row(
    "inert",
    "N11",
    ("ends_modulus", "ends_award"),
    doc="`ends_modulus` unless `move_scoring` is ends/luck; `ends_award` unless ends",
    ru="Нужно только при подсчёте концов.",
    en="Only used when open ends are scored.",
    each_count=False,
)
def _n11(d: Draft, n: int) -> list[Hit]:
    hits = []
    if d.s("move_scoring") not in END_TOTAL_SCORING:
        hits.append(Hit(("ends_modulus",)))
    if d.s("move_scoring") != MoveScoring.ENDS:
        hits.append(Hit(("ends_award",)))
    return hits


@row(
    "inert",
    "N12",
    ("targets", "target_check", "hands_limit"),
    doc="`targets`, `target_check` with `goal = fixed-hands`; `hands_limit` otherwise",
    ru="{why}",
    en="{why}",
    each_count=False,
)
def _n12(d: Draft, n: int) -> Hit:
    if d.s("goal") == Goal.FIXED_HANDS:
        return Hit(
            ("targets", "target_check"),
            {
                "why": Say(
                    "Матч идёт заданное число раздач — цель в очках не нужна.",
                    "The match is a fixed number of hands: no target.",
                )
            },
        )
    return Hit(
        ("hands_limit",),
        {
            "why": Say(
                "Матч идёт до цели — число раздач не нужно.",
                "The match is played to a target: no hand count.",
            )
        },
    )


@row(
    "inert",
    "N13",
    ("target_check",),
    doc="`move_scoring = none` or `luck` (Threes for luck settles at the hand's end), and the "
    "goal is a target",
    ru="Во время партии очки в матч не идут — проверять цель посреди раздачи нечего.",
    en="No points count towards the match during play, so there is nothing to check mid-hand.",
    each_count=False,
)
def _n13(d: Draft, n: int) -> Hit | None:
    # Threes for luck scores during play but settles at the hand's end: nothing to check either.
    return when(
        d.s("move_scoring") in (MoveScoring.NONE, MoveScoring.LUCK)
        and d.s("goal") != Goal.FIXED_HANDS
    )


@row(
    "inert",
    "N14",
    ("extra_turn_sum", "forced_draw_sum"),
    doc="the sum is above the largest end total at the count: line 22 (12 with `doubles = "
    "along`), cross/telephone 36 (24 along), trains 30/36/40 for 2/3/4 players (6 per train "
    "end along)",
    ru="Такой суммы концов не бывает (наибольшая — {max}).",
    en="The open ends never total {N} (at most {max}).",
)
def _n14(d: Draft, n: int) -> list[Hit]:
    most = d.max_end_total(n)
    return [
        Hit((name,), {"N": d.i(name), "max": most})
        for name in ("extra_turn_sum", "forced_draw_sum")
        if d.i(name) > most
    ]


@row(
    "inert",
    "N15",
    ("hand_scoring",),
    doc="`hand_scoring = worst-own` with `teams = opposite-pairs`, or **(added here)** with 2 "
    "players",
    ru="{sides}: единственный проигравший и есть худший («пишет только худший» = «проигравшие "
    "пишут свои очки»).",
    en="{sides} the only loser is the worst one ('only the worst records' = 'the losers record "
    "their own pips').",
)
def _n15(d: Draft, n: int) -> Hit | None:
    if d.s("hand_scoring") != HandScoring.WORST_OWN:
        return None
    if d.pairs_play:
        return Hit(params={"sides": Say("Сторон две", "With two sides")})
    if n == 2:  # an addition: two players have one loser too
        return Hit(params={"sides": Say("Игроков двое", "With two players")})
    return None


@row(
    "inert",
    "N16",
    ("next_opener", "next_fallback"),
    doc="`goal = fixed-hands` with `hands_limit = 1`",
    ru="Матч из одной раздачи — следующего захода нет.",
    en="A one-hand match has no next hand.",
    each_count=False,
)
def _n16(d: Draft, n: int) -> Hit | None:
    return when(d.s("goal") == Goal.FIXED_HANDS and d.i("hands_limit") == 1)


@row(
    "inert",
    "N17",
    ("fish_counts", "block_scoring"),
    doc="`end_when_boneyard_empty`, `must_draw_when_stuck`, **(added here)** `draw_limit = 0`, "
    "and a boneyard at the count",
    ru="Партия кончается, как только базар исчерпан, а пока в нём есть кости, застрявший обязан "
    "брать, — настоящей рыбы не бывает.",
    en="The hand ends as soon as the boneyard runs out, and until then a stuck player must "
    "draw, so a true block never happens.",
)
def _n17(d: Draft, n: int) -> Hit | None:
    return when(
        d.b("end_when_boneyard_empty")
        and d.b("must_draw_when_stuck")
        and d.i("draw_limit") == 0
        and d.drawable(n) > 0
    )


@row(
    "inert",
    "N18",
    ("draw_limit",),
    doc="**(found here)** `draw_limit` at or above the tiles that can ever be drawn at the count",
    ru="Больше {drawable} костей с базара не взять (при {players} игроках) — предел {limit} "
    "ничего не ограничивает.",
    en="At most {drawable} tiles can ever be drawn (with {players} players), so a limit of "
    "{limit} limits nothing.",
)
def _n18(d: Draft, n: int) -> Hit | None:
    # An addition: a limit at or above what the boneyard can ever hold never binds.
    limit = d.i("draw_limit")
    drawable = d.drawable(n)
    return when(0 < drawable <= limit, limit=limit, drawable=drawable)


@row(
    "inert",
    "N19",
    ("min_record",),
    doc="**(found here)** `min_record = 1` with an end-of-hand amount (an amount of 0 is "
    "nothing recorded anyway)",
    ru="Записывают и так не меньше 1 очка — минимум 1 ничего не отсекает.",
    en="Every recorded amount is at least 1 anyway: a minimum of 1 drops nothing.",
    each_count=False,
)
def _n19(d: Draft, n: int) -> Hit | None:
    # An addition: min_record 1 drops nothing (every recorded amount is at least 1 already).
    return when(
        d.i("min_record") == 1
        and d.s("hand_scoring") not in (HandScoring.NONE, HandScoring.LUCK_SETTLEMENT)
    )


@row(
    "inert",
    "N20",
    ("cross_quota", "layout"),
    doc="**(found here)** `layout = cross` and 2 × `cross_quota` + 1 above the tiles in play at "
    "the count",
    ru="В игре не больше {tiles} костей (при {players} игроках): с {quota} по каждую сторону "
    "крест не откроется — это линия.",
    en="At most {tiles} tiles are in play (with {players} players): with {quota} on each side "
    "the cross never opens, so it is a line.",
)
def _n20(d: Draft, n: int) -> Hit | None:
    # An addition: on a cross whose sides can never both hold the quota, no side ray opens.
    if d.s("layout") != Layout.CROSS:
        return None
    in_play = d.in_play(n)
    quota = d.i("cross_quota")
    return when(2 * quota + 1 > in_play, quota=quota, tiles=in_play)


@row(
    "inert",
    "N21",
    ("fish_counts",),
    doc="**(found here)** `fish_counts = false` and no boneyard at the count (it was the "
    "conflict K2): a set covers several player counts, and a redeal needs a boneyard, so "
    "there the block counts as usual; N1 then leaves `fish_counts` to this row",
    ru="Базара нет, и рыба засчитывается (при {players} игроках): пересдают её, только когда "
    "есть базар.",
    en="No boneyard, so a blocked hand counts (with {players} players): it is redealt only "
    "where there is a boneyard.",
)
def _n21(d: Draft, n: int) -> Hit | None:
    # Found here (was the conflict K2): a redeal needs a boneyard; where none, the block counts.
    return when(not d.b("fish_counts") and d.drawable(n) == 0)
