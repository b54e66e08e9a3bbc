"""The values the rules' enumerations take (`Drawing`, `Opener`, `Layout`, …), as the rules
files, the wire and the check spell them; a later version adds values, never renames.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class Drawing(StrEnum):
    """When a player may take a tile from the boneyard."""

    ANY_TIME = "any-time"  # even while holding a playable tile
    WHEN_STUCK = "when-stuck"  # only with no playable tile
    NEVER = "never"  # no boneyard: undealt tiles stay out of play


class Opener(StrEnum):
    """Who leads a hand, and with what."""

    LOTTERY = "lottery"  # seat (lottery mod n), any tile; the random input comes from outside
    ROTATE = "rotate"  # one seat clockwise from the previous counted hand's opener, any tile
    PREVIOUS_WINNER = "previous-winner"  # the previous counted hand's lead seat, any tile
    LOWEST_DOUBLE = "lowest-double"  # the holder of 0:0 leads it, else 1:1, …
    HIGHEST_DOUBLE = "highest-double"  # 6:6, else 5:5, …
    ASSIGNED_DOUBLE = "assigned-double"  # d:d, then (d+1):(d+1) … 6:6, 0:0 … cyclically
    WEEKDAY_DOUBLE = "weekday-double"  # as assigned, with d = weekday mod 7
    HEAVIEST_TILE = "heaviest-tile"  # the most pips, ties to the higher half

    @property
    def is_double_rule(self) -> bool:
        return self in DOUBLE_RULES

    @property
    def is_claimed(self) -> bool:
        """Whether finding the opener needs to know who holds which tile."""
        return self in DOUBLE_RULES or self is Opener.HEAVIEST_TILE


DOUBLE_RULES: Final = frozenset(
    {Opener.LOWEST_DOUBLE, Opener.HIGHEST_DOUBLE, Opener.ASSIGNED_DOUBLE, Opener.WEEKDAY_DOUBLE}
)

FirstOpener = Opener
"""Who leads the first hand (the name of the first version; one enum now)."""
NextOpener = Opener
"""Who leads the later hands (the name of the first version; one enum now)."""


class Fallback(StrEnum):
    """What decides the opener when the opening rule finds nothing (no double dealt, no winner)."""

    HEAVIEST_TILE = "heaviest-tile"
    LOTTERY = "lottery"
    PREVIOUS_OPENER = "previous-opener"
    ROTATE = "rotate"
    REDEAL = "redeal"  # the hand is void and dealt again


class BlockScoring(StrEnum):
    """How a blocked hand is scored (the seed's "fish")."""

    LOWEST_TAKES = "lowest-takes"  # the unique lowest wins the hand, as at a domino
    LOWEST_TAKES_DIFFERENCE = "lowest-takes-difference"  # amounts less the lowest's pips
    ALL_TO_WORST = "all-to-worst"  # the unique worst records every pip on the table


class Layout(StrEnum):
    """The shape of the layout on the table."""

    LINE = "line"  # two open ends
    CROSS = "cross"
    TELEPHONE = "telephone"
    TRAINS = "trains"


class Doubles(StrEnum):
    """How a double lies."""

    ACROSS = "across"  # crosswise: its long sides A and B
    ALONG = "along"  # lengthwise, like any other tile: end A and end B
    CHOICE = "choice"  # the player says so on each double


class Teams(StrEnum):
    """Whether seats play alone or in pairs ("us and them")."""

    NONE = "none"
    OPPOSITE_PAIRS = "opposite-pairs"  # seats 0+2 against 1+3


class HandScoring(StrEnum):
    """What is recorded when a hand ends (the seed's "Who records what")."""

    LOSERS_OWN = "losers-own"  # each loser records their own pips (bad points)
    WORST_OWN = "worst-own"  # only the worst loser records (bad points)
    LEADER_TAKES = "leader-takes"  # the winner records the others' pips (good points)
    NONE = "none"
    LUCK_SETTLEMENT = "luck-settlement"


class MoveScoring(StrEnum):
    NONE = "none"
    ENDS = "ends"
    PLACED_TILE = "placed-tile"
    LUCK = "luck"


class EndsAward(StrEnum):
    QUOTIENT = "quotient"
    TOTAL = "total"


class Goal(StrEnum):
    """How a match ends (the seed's "Goal")."""

    REACH_WINS = "reach-wins"
    REACH_LOSES = "reach-loses"  # the classic: whoever reaches the target loses
    FIXED_HANDS = "fixed-hands"


class TargetCheck(StrEnum):
    HAND_END = "hand-end"
    IMMEDIATE = "immediate"
