"""The host's lobby before the genesis, as plain state: who sits where, who asks for a seat,
and the host's answers (approve, refuse, remove, swap).

No I/O and no trio: the connections, the waiting and the wake-ups live in `lobby_member.py`
(`LiveLobby`), so the seating rules are tested without a network (tests/net/test_host_lobby.py).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from p2p_dominoes.engine import Rules
from p2p_dominoes.net.addresses import is_loopback
from p2p_dominoes.net.admission import Admission, HostDesk, LobbySeat, LobbyState, Refusal
from p2p_dominoes.net.lobby import SeatAddress, Seats
from p2p_dominoes.net.peer_options import PeerOptions, ui_lang
from p2p_dominoes.net.said import said
from p2p_dominoes.net.strangers import StrangerLog
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import PublicIdentity, SeatInfo

if TYPE_CHECKING:  # a seat's connection, only held here (the live lobby uses it)
    from p2p_dominoes.net.connection import Connection

log = logging.getLogger("p2p_dominoes.net")


@dataclass
class Seated:
    """A seat taken in the host's lobby (the host's own included), and how to reach its player."""

    name: str
    key: PublicIdentity
    observed: str
    """The address the host saw the player connect from."""
    port: int
    host_address: str
    """The address the player used to reach the host."""
    connection: Connection | None
    commitment: bytes
    """The player's table-nonce commitment, for its genesis seat (table code)."""
    place: int = 0
    """The seat this player holds (0-based; the host's is 0). At the start it is the genesis
    seat, so at a Kozel table it fixes the pairs (0+2 against 1+3)."""
    returning: float | None = None
    """Since when (trio clock) this seat is kept for its player, sent back to the lobby after
    another seat was lost during the setup (`setup_again.py`); None: the player is here."""


class HostLobby:
    """The host's seat list before the genesis, who asks for a seat, and the host's answers.

    Plain state: `touch` (something changed) shows the host's person the lobby; the live lobby
    (`lobby_member.LiveLobby`) also wakes the tasks that wait on it.
    """

    def __init__(
        self,
        options: PeerOptions,
        port: int,
        players: int,
        table: str,
        rules: Rules,
        desk: HostDesk | None,
        commitment: bytes,
        max_hands: int | None = None,
        code: bytes | None = None,
    ) -> None:
        self.options = options
        self.max_hands = max_hands
        self.players = players
        self.table = table
        self.rules = rules
        self.desk = desk
        self.admission = Admission(ask=desk is not None, code=code)
        self.strangers = StrangerLog(log)
        self.seated: list[Seated] = [
            Seated(options.name, options.identity.public, "", port, "", None, commitment)
        ]
        """Kept in seat order (`place`); seats may be empty between them before the start."""
        self.started = False
        self.bot_numbers: dict[PublicIdentity, int] = {}
        """Our own bots' keys and numbers: they sit in number order, whoever came first."""
        self.bot_levels: dict[PublicIdentity, str] = {}
        """Our own bots' keys and levels, said to the joiners for their pages."""
        self.swaps = 0
        """How many swaps the host made (each is sent to everyone seated)."""
        self.abandoned: set[PublicIdentity] = set()
        """Keys of seats lost while a genesis was signed: one that resumes it is told that
        table never started."""

    def seats_for(self, recipient: Seated) -> Seats:
        """The seat list as `recipient` should dial it (bots beside the host via its address)."""
        seats = []
        for seated in self.seated:
            if seated.connection is None or is_loopback(seated.observed):
                address = recipient.host_address or "127.0.0.1"
            else:
                address = seated.observed
            seats.append(SeatAddress(seated.name, seated.key, address, seated.port))
        places = tuple(s.place for s in self.seated)
        # Places go on the wire only when there is a gap (older joiners read 0, 1, 2, … then).
        shown = None if places == tuple(range(len(places))) else places
        return Seats(self.table, self.rules, self.players, tuple(seats), self.max_hands, shown)

    def state(self) -> LobbyState:
        """The lobby as the host's person sees it (names cleaned)."""
        seats = tuple(
            LobbySeat(
                s.place, peer_text(s.name, 64), s.key.fingerprint, self.admission.trusts(s.key)
            )
            for s in self.seated
        )
        pairs = self.rules.pairs
        table = peer_text(self.table, 64)
        code = self.admission.code
        return LobbyState(table, self.players, seats, self.admission.pending, pairs, code)

    def holder(self, place: int) -> Seated | None:
        """Who holds seat `place`, if anyone."""
        return next((s for s in self.seated if s.place == place), None)

    def place_for(self, asked: int | None) -> int | Refusal:
        """The seat a joiner asking for `asked` (None: any) gets now, or why not.

        A seat one of our own bots holds is free for a person (the bot moves to another).
        """
        if asked is None:
            return self._lowest_free()
        if not 0 <= asked < self.players:
            return Refusal(
                "seat",
                f"there is no seat {asked + 1} at this table (seats 2–{self.players} are "
                "for joiners)",
            )
        if asked == 0:
            return Refusal("seat", "seat 1 is the host's")
        holder = self.holder(asked)
        if holder is not None and not self.admission.trusts(holder.key):
            return Refusal("seat", f"seat {asked + 1} is taken")
        return asked

    def _lowest_free(self) -> int:
        taken = {s.place for s in self.seated}
        return next(p for p in range(1, self.players) if p not in taken)

    def seat(self, seated: Seated) -> None:
        """Put `seated` at its place; a bot there moves to the lowest free seat."""
        holder = self.holder(seated.place)
        self.seated.append(seated)
        if holder is not None:
            holder.place = -1
            holder.place = self._lowest_free()
        self._sort()

    def _sort(self) -> None:
        self.seated.sort(key=lambda s: s.place)
        if not self.swaps:  # once the host swapped, every seat stays where the host put it
            bots_in_order(self.seated, self.bot_numbers)

    def touch(self) -> None:
        """Something changed: show the host's person (the live lobby also wakes its tasks)."""
        if self.desk is not None and not self.started:
            self.desk.lobby(self.state())

    # -- the host's answers (LobbyControl) -------------------------------------------------------

    def approve(self, number: int) -> bool:
        if self.started or self.admission.answer(number, True) is None:
            return False
        self.touch()
        return True

    def refuse(self, number: int) -> bool:
        if self.started:
            return False
        request = self.admission.answer(number, False)
        if request is None:
            return False
        self.options.say(
            said(
                "refused_request",
                ui_lang(self.options),
                name=request.name,
                fingerprint=request.key.fingerprint,
            )
        )
        self.touch()
        return True

    def remove(self, seat: int) -> bool:
        """Take seat `seat` (not the host's) back before the start; its task tells the player."""
        removed = self.holder(seat) if not self.started and seat != 0 else None
        if removed is None:
            return False
        self.seated.remove(removed)
        if not self.rules.pairs:  # where one sits matters only to partners: close the gap
            for place, seated in enumerate(self.seated):
                seated.place = place
        self.admission.removed(removed.key)
        self.options.say(
            said("removed", ui_lang(self.options), name=peer_text(removed.name, 64), seat=seat + 1)
        )
        self.touch()
        return True

    def swap(self, first: int, second: int) -> bool:
        """Exchange seats `first` and `second` (either may be empty; not the host's) before the
        start: at a Kozel table this chooses who partners whom. Everyone is sent the new list."""
        places = range(1, self.players)
        if self.started or first == second or first not in places or second not in places:
            return False
        one, other = self.holder(first), self.holder(second)
        if one is None and other is None:
            return False
        if one is not None:
            one.place = second
        if other is not None:
            other.place = first
        # Only the order is sorted here: our bots keep the seats the host gave them.
        self.seated.sort(key=lambda s: s.place)
        self.options.say(said("swapped", ui_lang(self.options), first=first + 1, second=second + 1))
        self.swaps += 1
        self.touch()
        return True


def bots_in_order(seated: list[Seated], numbers: dict[PublicIdentity, int]) -> None:
    """Put our own bots, among the seats they hold, in the order of their numbers (they start
    at once and arrive in any order; `bot-2` should not sit before `bot-1`). Other seats stay
    where they are."""
    places = [i for i, s in enumerate(seated) if s.key in numbers]
    seats = [seated[i].place for i in places]
    bots = sorted((seated[i] for i in places), key=lambda s: numbers[s.key])
    for index, bot, seat in zip(places, bots, seats, strict=True):
        seated[index] = bot
        bot.place = seat


def levels_by_seat(
    seats: Sequence[SeatInfo | SeatAddress],
    levels: Mapping[PublicIdentity, str],
    skip: Collection[int] = (),
) -> dict[int, str]:
    """Each seat's bot level, found by the seat's key (seats in `skip` left out)."""
    return {i: levels[s.key] for i, s in enumerate(seats) if i not in skip and s.key in levels}
