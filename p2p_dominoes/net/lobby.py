"""Lobby messages (before the genesis) and the channel byte that tells them from envelopes.

Every transport `data` payload starts with one channel byte: 0x01 a session envelope
(PROTOCOL.md §4), 0x02 a lobby message, a strict msgpack array (PROTOCOL.md §13), 0x03 an
advisory page-presence message (`net/page_presence.py`, PROTOCOL.md §14). The lobby's are:

- `["join", name, listen_port, host_address, commitment]` joiner → host: take a seat;
  `host_address` is the address the joiner used to reach the host (so the host can tell others
  how to reach bots that run beside it); `commitment` (32 bytes) fixes the joiner's secret table
  nonce before it sees anyone's (`session.table_code`), and the genesis must carry it; an
  optional sixth element `seat` (int, 0-based, or nil: any seat) asks for one seat (PROTOCOL.md
  §13.1: partners at a Kozel table are fixed by the seats); an optional seventh element `code`
  (1–16 bytes) is the host's join code as the joiner typed it (`net/join_code.py`, PROTOCOL.md
  §13.3), sent only when the joiner has one (the sixth is then nil or a seat);
- `["seats", table_name, rules, seats_total, [[name, key, address, port], …], max_hands | nil]`
  host → everyone seated: the table's full rules (`Rules.to_wire`, validated on arrival: a set
  with a conflict is refused), the seats so far, clockwise in join order (seat 0 is the host),
  and how many hands the match will last (nil: a whole match), which the genesis must then sign;
  an optional seventh element `places` lists the seat number of each listed player (the list is
  in seat order; without it, the seats are 0, 1, 2, … as listed); once every seat is taken the
  list is the genesis order;
- `["genesis", envelope]` host → everyone: the signed genesis (it carries `max_hands`); play
  begins;
- `["refuse", code, reason]` host → joiner: no seat, or no longer one; `code` is one of
  `REFUSAL_CODES` and is what a joiner acts on (it retries only `busy`), `reason` is words for a
  person (cleaned before display, never parsed).
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Final

import msgpack  # type: ignore[import-untyped]

from p2p_dominoes.engine import InvalidRecord, Rules
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import COMMITMENT_SIZE, PublicIdentity
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.identity import InvalidIdentity
from p2p_dominoes.words import phrase

CHANNEL_SESSION: Final = 0x01
CHANNEL_LOBBY: Final = 0x02
MAX_NAME_BYTES: Final = 64
MAX_CODE_BYTES: Final = 16

REFUSAL_CODES: Final = (
    "busy",
    "full",
    "refused",
    "removed",
    "playing",
    "unanswered",
    "seated",
    "seat",
    "code",
    "again",
    "unstarted",
)
"""Why a host turns a joiner away (PROTOCOL.md §13): busy (too many requests waiting; try again
later), full, refused (by the host, or a key or source in its cooldown), removed (by the host
after being seated), playing (the game began), unanswered (the host did not answer in time),
seated (this key already holds a seat or has a request waiting), seat (the seat asked for does
not exist at this table, is the host's, or is taken), code (this table needs a join code and the
join carried none, or another one), again (a seat was lost before every seat signed the genesis:
come back to the lobby at once with a new commitment; `net/setup_lost.py`), unstarted (the
genesis this seat resumes was abandoned before it was signed by every seat)."""
RETRY_CODES: Final = frozenset({"busy"})
"""The refusals a joiner retries (with backoff); every other code is final."""


_BOT_LEVEL: Final = re.compile(r"[a-z][a-z0-9-]{0,15}")
"""A bot level's name as the lobby carries it (`easy`, `hard`, `partner`, a newer peer's)."""
MAX_BOTS: Final = 3
"""A host starts at most players − 1 bots."""


class LobbyError(Exception):
    """A lobby message that is not well formed."""


@dataclass(frozen=True)
class Join:
    name: str
    listen_port: int
    host_address: str
    commitment: bytes
    """The joiner's table-nonce commitment (`session.seat_commitment`), for its genesis seat."""
    seat: int | None = None
    """The seat asked for (0-based; None: any). The host checks it against its table."""
    code: bytes | None = None
    """The host's join code as the joiner gave it (None: none given)."""


@dataclass(frozen=True)
class SeatAddress:
    """A seated player: display name, identity key, and where its peer listens."""

    name: str
    key: PublicIdentity
    address: str
    port: int


@dataclass(frozen=True)
class Seats:
    table_name: str
    rules: Rules
    """Every switch of the table (the genesis must carry the same; only the stall timeout may
    differ)."""
    seats_total: int
    seats: tuple[SeatAddress, ...]
    max_hands: int | None = None
    """The match length the host will sign in the genesis (None: a whole match)."""
    places: tuple[int, ...] | None = None
    """Each listed player's seat number, ascending (None: 0, 1, 2, … as listed)."""

    def place_of(self, index: int) -> int:
        """The seat number of the `index`-th listed player."""
        return self.places[index] if self.places is not None else index


@dataclass(frozen=True)
class BotLevels:
    """The host's own bots at its table, by key, and the level each plays (advisory, for the
    pages: PROTOCOL.md §13.2). A host sends it after each seat list; a reader that does not
    know it drops it."""

    levels: tuple[tuple[PublicIdentity, str], ...]


@dataclass(frozen=True)
class GenesisOffer:
    """The signed genesis; the match length travels inside it, signed."""

    envelope: bytes


@dataclass(frozen=True)
class Refuse:
    """No seat: `code` (one of REFUSAL_CODES) for the program, `reason` for a person."""

    code: str
    reason: str


LobbyMessage = Join | Seats | BotLevels | GenesisOffer | Refuse


def encode_lobby(message: LobbyMessage) -> bytes:
    """The transport payload (channel byte included) for a lobby message."""
    if isinstance(message, Join):
        body: list[object] = ["join", message.name, message.listen_port, message.host_address]
        body.append(message.commitment)  # table code (PROTOCOL.md §13)
        if message.seat is not None or message.code is not None:
            body.append(message.seat)  # a seat asked for (PROTOCOL.md §13.1)
        if message.code is not None:
            body.append(message.code)  # the join code (PROTOCOL.md §13.3)
    elif isinstance(message, Seats):
        seats = [[s.name, s.key.raw, s.address, s.port] for s in message.seats]
        rules = [list(pair) for pair in message.rules.to_wire()]
        body = ["seats", message.table_name, rules, message.seats_total, seats]
        body.append(message.max_hands)
        if message.places is not None:
            body.append(list(message.places))
    elif isinstance(message, BotLevels):
        body = ["bots", [[key.raw, level] for key, level in message.levels]]
    elif isinstance(message, GenesisOffer):
        body = ["genesis", message.envelope]
    else:
        body = ["refuse", message.code, message.reason]
    packed: bytes = msgpack.packb(body, use_bin_type=True)
    return bytes([CHANNEL_LOBBY]) + packed


def decode_lobby(payload: bytes) -> LobbyMessage:
    """Parse a lobby payload (after the channel byte); LobbyError for anything malformed."""
    try:
        body = msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=True,
            max_map_len=0,
            max_ext_len=0,
            max_array_len=64,
            max_str_len=4096,
            max_bin_len=65536,
            use_list=True,
        )
    except (ValueError, msgpack.UnpackException, TypeError) as exc:
        raise LobbyError(phrase("net.why.lobby_unreadable", error=exc)) from None
    if not isinstance(body, list) or not body or not isinstance(body[0], str):
        raise LobbyError(phrase("net.why.lobby_no_kind"))
    kind, args = body[0], body[1:]
    if kind == "join" and len(args) in (4, 5, 6) and _types(args[:4], str, int, str, bytes):
        name, port, host, commitment = args[:4]
        _check_name(name)
        _check_port(port)
        seat = _check_seat_asked(args[4] if len(args) >= 5 else None)
        code = _check_code(args[5]) if len(args) == 6 else None
        return Join(name, port, _check_address(host), _check_commitment(commitment), seat, code)
    if kind == "seats" and len(args) in (5, 6) and _types(args[:4], str, list, int, list):
        table, raw_rules, total, raw_seats, hands = args[:5]
        _check_name(table)
        try:
            rules = Rules.from_wire(raw_rules)
        except InvalidRecord as exc:
            raise LobbyError(phrase("net.why.lobby_rules_unplayable", error=exc)) from None
        if not 2 <= total <= 4 or len(raw_seats) > total:
            raise LobbyError(phrase("net.why.lobby_seat_count"))
        if hands is not None and (type(hands) is not int or not 1 <= hands <= MAX_HANDS):
            raise LobbyError(phrase("net.why.lobby_max_hands", most=MAX_HANDS))
        listed = tuple(_seat(s) for s in raw_seats)
        places = _check_places(args[5], len(listed), total) if len(args) == 6 else None
        return Seats(table, rules, total, listed, hands, places)
    if kind == "bots" and _types(args, list):
        return BotLevels(_check_bots(args[0]))
    if kind == "genesis" and _types(args, bytes):
        return GenesisOffer(args[0])
    if kind == "refuse" and _types(args, str, str):
        code, reason = args
        # An unknown code (from a newer peer) is a final refusal: never retried.
        return Refuse(code if code in REFUSAL_CODES else "refused", peer_text(reason, 256))
    raise LobbyError(phrase("net.why.lobby_malformed", kind=repr(kind)))


def _types(args: list[object], *kinds: type) -> bool:
    return len(args) == len(kinds) and all(type(a) is k for a, k in zip(args, kinds, strict=True))


def _check_name(name: str) -> None:
    if not name or len(name.encode()) > MAX_NAME_BYTES or not name.isprintable():
        raise LobbyError(phrase("net.why.lobby_name"))


def _check_port(port: int) -> None:
    if not 1 <= port <= 65535:
        raise LobbyError(phrase("net.why.lobby_port"))


def _check_seat_asked(seat: object) -> int | None:
    """A join's seat: nil (any) or an integer; the host checks it against its own table (and
    refuses a seat it does not have with the `seat` code and words, never by closing)."""
    if seat is None:
        return None
    if type(seat) is not int:
        raise LobbyError(phrase("net.why.lobby_seat_asked"))
    return seat


def _check_code(code: object) -> bytes:
    """A join's code: 1–16 bytes (the host compares it with its own; a wrong one is refused
    with the `code` refusal, never by closing)."""
    if type(code) is not bytes or not 1 <= len(code) <= MAX_CODE_BYTES:
        raise LobbyError(phrase("net.why.lobby_code", most=MAX_CODE_BYTES))
    return code


def _check_places(raw: object, count: int, total: int) -> tuple[int, ...]:
    """A seat list's places: one distinct seat number per listed player, ascending, < total."""
    if (
        not isinstance(raw, list)
        or len(raw) != count
        or not all(type(p) is int and 0 <= p < total for p in raw)
        or any(a >= b for a, b in itertools.pairwise(raw))
    ):
        raise LobbyError(phrase("net.why.lobby_places"))
    return tuple(raw)


def _check_bots(raw: list[object]) -> tuple[tuple[PublicIdentity, str], ...]:
    """A bot list: at most three [key, level] pairs, distinct keys, each level a short
    lowercase name."""
    if len(raw) > MAX_BOTS:
        raise LobbyError(phrase("net.why.lobby_bots_most", most=MAX_BOTS))
    levels = []
    for entry in raw:
        if not isinstance(entry, list) or not _types(entry, bytes, str):
            raise LobbyError(phrase("net.why.lobby_bot_entry"))
        key, level = entry
        if not _BOT_LEVEL.fullmatch(level):
            raise LobbyError(phrase("net.why.lobby_bot_level"))
        try:
            levels.append((PublicIdentity(key), level))
        except InvalidIdentity as exc:
            raise LobbyError(phrase("net.why.lobby_bot_key", error=exc)) from None
    if len({key for key, _ in levels}) != len(levels):
        raise LobbyError(phrase("net.why.lobby_bot_twice"))
    return tuple(levels)


def _check_commitment(commitment: bytes) -> bytes:
    if len(commitment) != COMMITMENT_SIZE:
        raise LobbyError(phrase("net.why.lobby_commitment", size=COMMITMENT_SIZE))
    return commitment


def _check_address(address: str) -> str:
    if not 1 <= len(address) <= 64 or not all(c.isalnum() or c in ".:-%[]" for c in address):
        raise LobbyError(phrase("net.why.lobby_address"))
    return address


def _seat(raw: object) -> SeatAddress:
    if not isinstance(raw, list) or not _types(raw, str, bytes, str, int):
        raise LobbyError(phrase("net.why.lobby_seat_shape"))
    name, key, address, port = raw
    _check_name(name)
    _check_port(port)
    try:
        public = PublicIdentity(key)
    except InvalidIdentity as exc:
        raise LobbyError(phrase("net.why.lobby_seat_key", error=exc)) from None
    return SeatAddress(name, public, _check_address(address), port)
