"""The switches of the first version, in wire order: these eleven are always on the wire and
their bytes in a genesis are fixed (engine/rules.py `to_wire`). Nothing is ever added here."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.engine.field_spec import (
    REQUIRED,
    FieldSpec,
    bool_field,
    enum_field,
    int_field,
)
from p2p_dominoes.engine.rule_enums import (
    BlockScoring,
    Drawing,
    Layout,
    Opener,
)
from p2p_dominoes.engine.switches.record import Edit, Page, Switch
from p2p_dominoes.engine.switches.texts import (
    OPENERS,
    YES_NO,
    hand_sizes_text,
    reserve_text,
    seconds_text,
    targets_text,
)
from p2p_dominoes.engine.words import W

FIRST_VERSION: Final[tuple[Switch, ...]] = (
    Switch(
        FieldSpec("name", "str"),
        W("Название", "Name"),
        page=Page(order=10),
    ),
    Switch(
        FieldSpec("hand_sizes", "pairs", switch="D2"),
        W("Сколько костей раздавать", "Tiles dealt to each player"),
        text=hand_sizes_text,
        page=Page(order=20),
    ),
    Switch(
        int_field("reserve", REQUIRED, 0, 27, "W2"),
        W("Можно ли забрать последнюю кость с базара", "May the last boneyard tile be taken"),
        text=reserve_text,
        page=Page(order=50),
        edit=Edit("deal", "choice", order=50, values=(0, 1, 2)),
        affects_turns=True,
    ),
    Switch(
        enum_field("drawing", Drawing, switch="D3"),
        W(
            "Есть ли базар; можно ли покупать, когда ход и так есть",
            "Is there a boneyard; may you draw while holding a play",
        ),
        values={
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
        page=None,
        origin="D3, W3",
        affects_turns=True,
    ),
    Switch(
        bool_field("play_drawn_at_once", REQUIRED),
        W("Подходящую взятую кость кладут сразу", "A drawn tile that fits is played at once"),
        values=YES_NO,
        page=Page(order=70),
        edit=Edit("deal", "bool", order=70),
        origin="[S001]",
        affects_turns=True,
    ),
    Switch(
        enum_field(
            "first_opener",
            Opener,
            switch="O1",
            plays=tuple(
                o.value for o in Opener if o not in (Opener.ROTATE, Opener.PREVIOUS_WINNER)
            ),
        ),
        W("Правило захода в первой раздаче", "Opening rule of the first hand"),
        values=OPENERS,
        page=None,
        edit=Edit("opening", "choice", order=80),
    ),
    Switch(
        enum_field("next_opener", Opener, switch="O1"),
        W("Правило захода в следующих раздачах", "Opening rule of later hands"),
        values=OPENERS,
        page=None,
        edit=Edit("opening", "choice", order=100),
    ),
    Switch(
        enum_field("block_scoring", BlockScoring, switch="S2"),
        W("Рыба", "Blocked hand"),
        values={
            "lowest-takes": W("забирает тот, у кого меньше", "the lowest takes"),
            "lowest-takes-difference": W("разница", "the difference"),
            "all-to-worst": W("вся сумма проигравшему", "the whole sum to the loser"),
        },
        page=Page(order=200),
        edit=Edit("scoring", "choice", order=230),
    ),
    Switch(
        FieldSpec("targets", "pairs", switch="S5"),
        W("Цель в очках", "Target points"),
        text=targets_text,
        page=None,
        affects_turns=True,
    ),
    Switch(
        enum_field("layout", Layout, Layout.LINE, switch="F1"),
        W("Форма стола", "Table shape"),
        values={
            "line": W("в одну линию", "one line"),
            "cross": W("крест (осёл)", "cross (donkey)"),
            "telephone": W("центр (телефон)", "centre (telephone)"),
            "trains": W("поезда", "trains"),
        },
        affects_turns=True,
        page=Page(order=270),
        edit=Edit("play", "choice", order=140),
    ),
    Switch(
        int_field("stall_timeout_s", 180, 1, 86_400),
        W("Сколько ждать хода игрока, секунд", "Seconds to wait for a player"),
        text=seconds_text,
        page=Page(order=340),
        edit=Edit("table", "number", order=400),
    ),
)
