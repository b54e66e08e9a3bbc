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
from p2p_dominoes.engine.words import Said

FIRST_VERSION: Final[tuple[Switch, ...]] = (
    Switch(
        FieldSpec("name", "str"),
        Said("engine.switch.name"),
        page=Page(order=10),
    ),
    Switch(
        FieldSpec("hand_sizes", "pairs", switch="D2"),
        Said("engine.switch.hand_sizes"),
        text=hand_sizes_text,
        page=Page(order=20),
    ),
    Switch(
        int_field("reserve", REQUIRED, 0, 27, "W2"),
        Said("engine.switch.reserve"),
        text=reserve_text,
        page=Page(order=50),
        edit=Edit("deal", "choice", order=50, values=(0, 1, 2)),
        affects_turns=True,
    ),
    Switch(
        enum_field("drawing", Drawing, switch="D3"),
        Said("engine.switch.drawing"),
        values={
            "any-time": Said("engine.switch.drawing.any_time"),
            "when-stuck": Said("engine.switch.drawing.when_stuck"),
            "never": Said("engine.switch.drawing.never"),
        },
        page=None,
        origin="D3, W3",
        affects_turns=True,
    ),
    Switch(
        bool_field("play_drawn_at_once", REQUIRED),
        Said("engine.switch.play_drawn_at_once"),
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
        Said("engine.switch.first_opener"),
        values=OPENERS,
        page=None,
        edit=Edit("opening", "choice", order=80),
    ),
    Switch(
        enum_field("next_opener", Opener, switch="O1"),
        Said("engine.switch.next_opener"),
        values=OPENERS,
        page=None,
        edit=Edit("opening", "choice", order=100),
    ),
    Switch(
        enum_field("block_scoring", BlockScoring, switch="S2"),
        Said("engine.switch.block_scoring"),
        values={
            "lowest-takes": Said("engine.switch.block_scoring.lowest_takes"),
            "lowest-takes-difference": Said("engine.switch.block_scoring.lowest_takes_difference"),
            "all-to-worst": Said("engine.switch.block_scoring.all_to_worst"),
        },
        page=Page(order=200),
        edit=Edit("scoring", "choice", order=230),
    ),
    Switch(
        FieldSpec("targets", "pairs", switch="S5"),
        Said("engine.switch.targets"),
        text=targets_text,
        page=None,
        affects_turns=True,
    ),
    Switch(
        enum_field("layout", Layout, Layout.LINE, switch="F1"),
        Said("engine.switch.layout"),
        values={
            "line": Said("engine.switch.layout.line"),
            "cross": Said("engine.switch.layout.cross"),
            "telephone": Said("engine.switch.layout.telephone"),
            "trains": Said("engine.switch.layout.trains"),
        },
        affects_turns=True,
        page=Page(order=270),
        edit=Edit("play", "choice", order=140),
    ),
    Switch(
        int_field("stall_timeout_s", 180, 1, 86_400),
        Said("engine.switch.stall_timeout_s"),
        text=seconds_text,
        page=Page(order=340),
        edit=Edit("table", "number", order=400),
    ),
)
