"""What a page's command asks for, checked once where it comes in (the page is untrusted input,
like the network): the settings of a table to host, where to join, an answer at the host's
desk, and a move at the table.

Each check takes the command as the page sent it (a JSON object) and gives either a value the
controller can act on or why it is refused (`Problem`: the refusal's key and the field at fault);
nothing here acts. Kept apart from the controller so that what is accepted can be read, and
tested, in one place.
"""

from __future__ import annotations

import dataclasses
import ipaddress
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from p2p_dominoes.bots import BOTS
from p2p_dominoes.engine import DRAW, FIELD, PASS, PRESETS, SKIP, Action, Line, Rules, SeatView
from p2p_dominoes.net import Target, split_host_port
from p2p_dominoes.net.connection import normalize_fingerprint
from p2p_dominoes.net.join_code import JoinCodeError, new_join_code, parse_join_code
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.store import RuleSetError, list_rule_sets
from p2p_dominoes.ui.web.page_moves import end_of, play_ends


def lobby_answer(command: dict[str, Any]) -> tuple[str, int] | None:
    """("approve" | "refuse", request number) or ("remove", seat) from a page command, or None."""
    kind = command.get("type")
    field = "seat" if kind == "remove" else "request"
    number = command.get(field)
    if kind not in ("approve", "refuse", "remove") or type(number) is not int:
        return None
    if not 0 <= number < 1_000_000:
        return None
    return str(kind), number


def check_go_on(command: dict[str, Any]) -> bool | Problem:
    """v4: the answer of a "go_on" command (go on without a seat that left?): a boolean."""
    answer = command.get("answer")
    if type(answer) is not bool:
        return Problem("go_on", "answer")
    return answer


@dataclass(frozen=True)
class Problem:
    """Why a command's settings are refused: the refusal's key and the field at fault."""

    key: str
    where: str | None = None
    values: tuple[tuple[str, object], ...] = ()


def saved_rule_sets(data_dir: Path | None) -> list[str]:
    """The names of the player's saved rule sets (for the create-table form)."""
    try:
        return list_rule_sets(data_dir) if data_dir is not None else []
    except RuleSetError:
        return []


def host_settings(command: dict[str, Any], data_dir: Path | None = None) -> dict[str, Any] | None:
    """The table settings a page's "host" command asks for, or None unless every field is of
    the right type and in range; `rules` names a preset or one of the saved sets in `data_dir`."""
    settings = check_host(command, data_dir)
    return None if isinstance(settings, Problem) else settings


def check_host(command: dict[str, Any], data_dir: Path | None = None) -> dict[str, Any] | Problem:
    """The table settings of a "host" command, or the first field that is wrong."""
    name = command.get("table")
    if name is not None and not isinstance(name, str):
        return Problem("table_name", "table")
    table = (name or "").strip()[:64] or "Dominoes"
    rules = command.get("rules", "draw")
    players, bots = command.get("players"), command.get("bots", 0)
    hands = command.get("hands")
    bot = command.get("bot", "random")
    if not isinstance(rules, str) or rules not in (*PRESETS, *saved_rule_sets(data_dir)):
        return Problem("rules", "rules")
    if type(players) is not int or not 2 <= players <= 4:
        return Problem("players", "players")
    if type(bots) is not int or not 0 <= bots < players:
        return Problem("bots", "bots", (("most", players - 1),))
    if isinstance(bot, list):  # each bot its own strategy, one per bot
        if len(bot) != bots or not all(isinstance(b, str) and b in BOTS for b in bot):
            return Problem("bot", "bot")
        bot = list(bot)
    elif not isinstance(bot, str) or bot not in BOTS:
        return Problem("bot", "bot")
    if hands is not None and (type(hands) is not int or not 1 <= hands <= MAX_HANDS):
        return Problem("hands", "hands", (("most", MAX_HANDS),))
    stall = command.get("stall_timeout")
    low, high = FIELD["stall_timeout_s"].bounds  # the switch record's, as for files and the CLI
    if stall is not None and (type(stall) is not int or not low <= stall <= high):
        return Problem("stall_timeout", "stall_timeout", (("low", low), ("high", high)))
    if not table.isprintable():
        return Problem("table_name", "table")
    asks_code = command.get("join_code", False)  # the page's checkbox; absent: no code
    if type(asks_code) is not bool:
        return Problem("join_code", "join_code")
    return {
        # Made once for the table, so a rematch of these settings keeps it (its joiners have it).
        "join_code": new_join_code() if asks_code else None,
        "table": table,
        "rules": rules,
        "players": players,
        "bots": bots,
        "bot": bot,
        "hands": hands,
        "stall_timeout": stall,
    }


_HOST_NAME = re.compile(
    r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9-]{1,63})*\.?"
)


def _dialable_host(host: str) -> bool:
    """An IP address (v6 with an optional zone) or a DNS host name: nothing else is dialled."""
    try:
        ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return _HOST_NAME.fullmatch(host) is not None
    return host.isascii() and host.isprintable() and len(host) <= 64


def join_target(command: dict[str, Any]) -> Target | None:
    """Where a page's "join" command asks to go (`HOST:PORT`, an optional full fingerprint to
    pin), or None when the address or the fingerprint is malformed."""
    target = check_join(command)
    return None if isinstance(target, Problem) else target


def check_join(command: dict[str, Any]) -> Target | Problem:
    """The join command's target, or which of its fields is malformed."""
    address = command.get("address")
    fingerprint = command.get("fingerprint")
    if not isinstance(address, str) or len(address) > 300:
        return Problem("address", "address")
    try:
        host, port = split_host_port(address.strip())
    except ValueError:
        return Problem("address", "address")
    if not _dialable_host(host):
        return Problem("address", "address")
    pin = None
    if fingerprint is not None:
        if not isinstance(fingerprint, str) or len(fingerprint) > 100:
            return Problem("fingerprint", "fingerprint")
        try:
            normalize_fingerprint(fingerprint)
        except ValueError:
            return Problem("fingerprint", "fingerprint")
        pin = fingerprint
    seat = command.get("seat")  # 0-based; None (absent): any free seat
    if seat is not None and (type(seat) is not int or not 1 <= seat <= 3):
        return Problem("seat", "seat")
    typed = command.get("code")  # the host's join code as typed (absent or empty: none)
    code = None
    if typed is not None and (not isinstance(typed, str) or len(typed) > 200):
        return Problem("join_code", "code")
    if typed and typed.strip():
        try:
            code = parse_join_code(typed)
        except JoinCodeError:
            return Problem("join_code", "code")
    return Target((host,), port, pin, seat=seat, code=code)


def host_rules(settings: dict[str, Any]) -> Rules:
    """The rules a host command names (read when it came), with its own stall timeout when it
    gives one."""
    rules: Rules = settings["table_rules"]
    stall = settings.get("stall_timeout")
    return rules if stall is None else dataclasses.replace(rules, stall_timeout_s=stall)


def action_from(command: dict[str, Any], view: SeatView, line: Line) -> Action | None:
    """The legal action a page command names, or None (also for any malformed command)."""
    kind = command.get("type")
    if kind == "draw":
        return DRAW if view.can_draw() else None
    if kind == "pass":
        return PASS if view.can_pass() else None
    if kind == "skip":
        return SKIP if view.can_skip() else None
    tile, end = command.get("tile"), command.get("end")
    along = command.get("along", False)  # a double laid lengthwise (doubles: choice)
    if kind != "play" or not isinstance(tile, str) or not isinstance(end, str):
        return None
    if not isinstance(along, bool):
        return None
    ends = play_ends(line)
    for play in view.legal_plays():
        if play.tile.key == tile and end_of(play, ends) == end and play.along == along:
            return play
    return None


def check_review(command: dict[str, Any]) -> int | Problem:
    """The hand a "review" command asks to review (`{"type": "review", "hand": N}`, the hand's
    number as the summary shows it), or why it is refused; no other field is accepted."""
    hand = command.get("hand")
    if set(command) != {"type", "hand"} or type(hand) is not int or not 1 <= hand <= MAX_HANDS:
        return Problem("review")
    return hand
