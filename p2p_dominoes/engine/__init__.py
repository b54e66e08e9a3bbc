"""The pure rules engine: tiles, the line, rules presets, hands, matches, scoring, descriptions.

No I/O, no clock and no randomness of its own: random choices (deals, lotteries) come in.
"""

from p2p_dominoes.engine.actions import DRAW, PASS, Action, Draw, Pass, Play
from p2p_dominoes.engine.description import (
    LANGUAGES,
    action_text,
    describe,
    hands_played_text,
    match_length_text,
    match_text,
    result_text,
    scores_text,
    seat_name,
    side_name,
)
from p2p_dominoes.engine.errors import EngineError, IllegalAction, InvalidRecord
from p2p_dominoes.engine.hand import HandState, highest_double_lead
from p2p_dominoes.engine.line import Connection, Line, Place, Side
from p2p_dominoes.engine.match import Match
from p2p_dominoes.engine.public import PeerView, PublicHand
from p2p_dominoes.engine.record import (
    HandRecord,
    Replay,
    ReplayStep,
    action_to_dict,
    load_record,
    parse_record,
    record_of,
    replay,
)
from p2p_dominoes.engine.rules import (
    BLOCK,
    DRAW_UNTIL_PLAY,
    PRESETS,
    BlockScoring,
    Drawing,
    FirstOpener,
    Layout,
    NextOpener,
    Rules,
    preset,
)
from p2p_dominoes.engine.rules import DRAW as DRAW_RULES
from p2p_dominoes.engine.scoring import (
    HandEnd,
    HandResult,
    MatchOutcome,
    match_outcome,
    score_block,
    score_domino,
)
from p2p_dominoes.engine.tiles import TILES, Tile, parse_tile, tile_of, tiles_in
from p2p_dominoes.engine.view import HandView, SeatView, legal_actions

__all__ = [
    "BLOCK",
    "DRAW",
    "DRAW_RULES",
    "DRAW_UNTIL_PLAY",
    "LANGUAGES",
    "PASS",
    "PRESETS",
    "TILES",
    "Action",
    "BlockScoring",
    "Connection",
    "Draw",
    "Drawing",
    "EngineError",
    "FirstOpener",
    "HandEnd",
    "HandRecord",
    "HandResult",
    "HandState",
    "HandView",
    "IllegalAction",
    "InvalidRecord",
    "Layout",
    "Line",
    "Match",
    "MatchOutcome",
    "NextOpener",
    "Pass",
    "PeerView",
    "Place",
    "Play",
    "PublicHand",
    "Replay",
    "ReplayStep",
    "Rules",
    "SeatView",
    "Side",
    "Tile",
    "action_text",
    "action_to_dict",
    "describe",
    "hands_played_text",
    "highest_double_lead",
    "legal_actions",
    "load_record",
    "match_length_text",
    "match_outcome",
    "match_text",
    "parse_record",
    "parse_tile",
    "preset",
    "record_of",
    "replay",
    "result_text",
    "score_block",
    "score_domino",
    "scores_text",
    "seat_name",
    "side_name",
    "tile_of",
    "tiles_in",
]
