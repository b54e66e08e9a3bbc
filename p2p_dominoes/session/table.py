"""The table session: one peer's sans-I/O state machine over the signed, hash-chained transcript.

Signed messages go in (`receive`), the local player's actions go in (`act`); events and the
messages this peer must broadcast come out. Every message, this peer's own included, goes
through the same validation before it joins the transcript: the expected seat and type, the
mental-poker proofs, and the public rules. What needs hidden tiles is checked at the end-of-hand
audit, when every seat has revealed its per-hand secret. A seat whose signed message fails is
named with the reason and the table stops; an honest peer never raises on any input.

`TableSession` is a facade; each concept lives in its own module:

- `phases`: the phases, the message types each takes, whose turn it is, and every allowed move
  between phases, as data (the order of a hand is written there);
- `intake`: accepting, buffering early messages, blame (equivocation, impersonation) and halt;
- `validation`: the one place a message is checked, and the validator of each type: `deal`
  (commit, reveal, shuffle, deal), `claims` (v3 lead claims), `turns` (plays, draws, passes,
  skips), `reveals` (hand reveals, secrets), with `opening` (who opens) and `tile_proofs`
  (v3 OR-proofs);
- `audit`: the end-of-hand audit; `duties`: this peer's own messages;
- `legacy`: protocol versions 1 and 2 (v2: §10.5 lead claims; v1: the first protocol), used only
  to verify and resume old logs. Protocol v3 (today's): a play and a lead claim show the tile
  with an OR-proof that it is at one of the seat's positions, never which one (§10.6).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from p2p_dominoes import mental
from p2p_dominoes.engine import (
    DRAW,
    Action,
    Draw,
    IllegalAction,
    InvalidRecord,
    Match,
    Pass,
    PeerView,
    Play,
    Rules,
)
from p2p_dominoes.engine.actions import Skip, action_words
from p2p_dominoes.mental import SYSTEM_RANDOM, HandContext, HandKeys, RandomSource
from p2p_dominoes.mental.errors import message_of
from p2p_dominoes.session import audit, come_back_relay, duties, leaving, legacy
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.envelope import (
    FIRST_VERSION,
    SECOND_VERSION,
    THIRD_VERSION,
    Envelope,
    MessageType,
)
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import (
    Blame,
    CheatingDetected,
    Event,
    HandEnded,
    HandStarted,
    TableReady,
    Update,
)
from p2p_dominoes.session.genesis_signing import next_genesis_signer, transcript_table_code
from p2p_dominoes.session.hand_in_play import HandInPlay
from p2p_dominoes.session.identity import Identity, PublicIdentity
from p2p_dominoes.session.intake import MAX_BUFFERED_PER_SEAT, Intake
from p2p_dominoes.session.leave_messages import (
    COME_BACK,
    CONTINUE,
    GOODBYE,
    LEFT,
    STALLED,
    ComeBack,
    come_back_request,
)
from p2p_dominoes.session.phases import (
    FINAL,
    HAND_PHASES,
    PHASE_TYPES,
    WHO_IS_NEXT,
    Phase,
    Trigger,
    next_phase,
    phase_types,
)
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.session.table_code import TableCode, opens_commitment
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.words import phrase

__all__ = [
    "LOTTERY_STALL",
    "MAX_BUFFERED_PER_SEAT",
    "HandKeysSource",
    "Phase",
    "TableSession",
    "is_lottery_stall",
]

HandKeysSource = Callable[[HandContext, int, RandomSource], HandKeys]
"""Where a seat's per-hand keys come from: fresh ones, or the store's (written before use)."""


LOTTERY_STALL: Final = "stopped during the opener lottery"
"""Said of a stall by the last seat to reveal its key share: it alone knew the hand's lottery
value (who opens, when the lottery decides) before stalling, so its silence may be a choice
against the outcome. A stall named so is marked in the table's log, and a later table with that
player says so (docs/threat-model.md, *Lottery*)."""


def is_lottery_stall(blame: Blame) -> bool:
    """Whether a blame names a seat that went silent during the opener lottery."""
    return blame.code == "stall" and LOTTERY_STALL in blame.reason


class TableSession:
    """One peer at one table; with `seat=None` a silent observer that only validates (verify)."""

    def __init__(
        self,
        transcript: Transcript,
        seat: int | None,
        identity: Identity | None,
        *,
        rng: RandomSource = SYSTEM_RANDOM,
        hand_keys: HandKeysSource | None = None,
        table_nonce: bytes | None = None,
    ) -> None:
        """``table_nonce`` is this seat's secret nonce, the one its genesis seat commits to
        (required for a seat; an observer has none). How many hands the match lasts is the
        genesis's ``max_hands``: signed by every seat, so every peer and any verifier agree."""
        self.transcript = transcript
        self.seat = seat
        self._identity = identity
        self._rng = rng
        genesis = transcript.genesis
        self.players = len(genesis.seats)
        self.version = genesis.protocol_version
        """1: the first protocol, 2: §10.5 claims (verify and resume of old logs); 3: today's
        (§10.6 plays that do not name their position)."""
        self._phase_types = phase_types(self.version)
        try:
            self.rules = Rules.from_wire(genesis.rules)
            self.rules.check_players(self.players)
        except InvalidRecord as exc:
            raise InvalidMessage(
                "bad-genesis", phrase("session.why.genesis_rules_invalid", reason=message_of(exc))
            ) from None
        if seat is not None and (identity is None or genesis.seats[seat].key != identity.public):
            raise ValueError(f"identity does not hold seat {seat + 1}")
        if seat is not None and (
            table_nonce is None
            or not opens_commitment(
                genesis.seats[seat].key, table_nonce, genesis.seats[seat].commitment
            )
        ):
            raise ValueError(phrase("session.why.nonce_does_not_open", seat=seat + 1))
        self._table_nonce = table_nonce
        self.names = [seat.name for seat in genesis.seats]
        """Each seat's name now: the genesis's, or its new holder's after a continuation (v4)."""
        self.goes_on_after_goodbye = False
        """v4: whether this seat's peer goes on after a goodbye (proposes or signs the
        continuation, starts the bot seat). Off, a goodbye stops the table for this peer naming
        the seat that left, as a stall did before version 4: a peer whose network layer cannot
        go on never waits for a continuation that will not come. An observer (verify) always
        follows the record."""
        self.agrees_by_default = True
        """v4: sign a proposed continuation at once (a peer with no person to ask); a peer that
        asks its player sets this False and calls `agree_to_continue`."""
        self.coming_back: ComeBack | None = None
        """v4 (§16.1): a returning player's request this peer puts on the table, as the seat
        that proposes it, at the next hand's start (`ask_back`); None when there is none."""
        self.max_hands = genesis.max_hands
        self._hand_keys = hand_keys or mental.new_hand_keys
        self.match = Match(self.rules, self.players)
        self.hands_ended: list[HandEnded] = []
        """Every audited hand's end, in order, as its event said it: a UI that comes in during
        the match (a resumed table, a seat taken back) shows the score history from it."""
        self._hands_begun = 0
        """Hands begun, void ones included: the wire's hand number (a void hand is redealt
        under the next number, with fresh keys)."""
        self.phase = Phase.SETUP
        """Where the table stands; changed only by `_move`, as `phases.TRANSITIONS` allows."""
        self.hand: HandInPlay | None = None
        self.blame: Blame | None = None
        self._intake = Intake(self)
        if len(transcript) != 1:
            raise ValueError("a session starts from a transcript that holds only the genesis")

    # -- what is expected next ------------------------------------------------------------

    @property
    def expected(self) -> tuple[int, tuple[MessageType, ...]] | None:
        """The seat whose message comes next and the types it may send, or None when done."""
        phase, hand = self.phase, self.hand
        if phase is Phase.SETUP:
            signer = next_genesis_signer(self.transcript)
            return None if signer is None else (signer, PHASE_TYPES[phase])
        if phase in FINAL or hand is None:
            return None
        return WHO_IS_NEXT[phase](hand), self._phase_types[phase]

    @property
    def awaiting_action(self) -> bool:
        """True when this peer's player must play, draw or pass."""
        expected = self.expected
        return self.phase is Phase.TURNS and expected is not None and expected[0] == self.seat

    @property
    def halted(self) -> bool:
        """True once a seat has been blamed: the table stops."""
        return self.phase is Phase.HALTED

    @property
    def finished(self) -> bool:
        """True once the match is over or the table stopped."""
        return self.phase in FINAL

    def view(self) -> PeerView:
        """What this peer's player may know of the hand in play."""
        hand = self.hand
        if hand is None or hand.public is None or self.seat is None:
            raise RuntimeError("no hand in play for this seat")
        mask = 0
        for position in hand.held[self.seat]:
            tile = hand.known.get(position)  # a drawn tile is known once every share is in
            if tile is not None and tile not in hand.tiles_played:
                mask |= tile.bit
        # The k-th draw of the hand took deck position players × size + k (bots read own draws).
        first = self.players * hand.size
        drawers = [seat for seat, action in hand.public.history if action is DRAW]
        drawn = (first + k for k, seat in enumerate(drawers) if seat == self.seat)
        own = tuple(hand.known[p] for p in drawn if p in hand.known)
        return PeerView(hand.public, self.seat, mask, hand.pending, own)

    @property
    def table_code(self) -> TableCode | None:
        """The code the players compare aloud, once every seat has signed the genesis."""
        if self.phase is Phase.SETUP:
            return None
        return transcript_table_code(self.transcript)

    @property
    def scores(self) -> tuple[int, ...]:
        """The match's scores so far, a seat."""
        return tuple(self.match.scores)

    # -- inputs -----------------------------------------------------------------------------

    def start(self) -> Update:
        """Messages this peer must send right away (its genesis signature when first)."""
        update = Update()
        self._send_automatic(update)
        return update

    def receive(self, data: bytes, via: int | None = None) -> Update:
        """Take a message from the network. Never raises: problems become events or are ignored.

        A message that does not authenticate is dropped (the transport blames the connection);
        an authenticated message that breaks a rule names its seat and halts the table, and its
        evidence goes out to every seat (`Update.forwarded`). `via` is the seat whose connection
        delivered the bytes, recorded in a blame when that is not the blamed seat.
        """
        return self._intake.receive(data, via)

    def act(self, action: Action) -> Update:
        """The local player's action; raises IllegalAction (changing nothing) if not allowed."""
        update = Update()
        hand = self.hand
        if not self.awaiting_action or hand is None or self.seat is None:
            raise IllegalAction(
                self.seat or 0, action_words(action), phrase("session.why.not_player_s_turn")
            )
        view = self.view()
        if isinstance(action, Play):
            action = hand.public.normalise(action) if hand.public else action
            if action not in view.legal_plays():
                raise IllegalAction(
                    self.seat, action_words(action), phrase("session.why.play_not_legal_now")
                )
            if action.along and self.version == FIRST_VERSION:
                raise IllegalAction(
                    self.seat, action_words(action), phrase("session.why.protocol_version_1_has_no")
                )
            if self.version <= SECOND_VERSION:
                envelope = self._sign(msg.PLAY, self._play_body(hand, action))
            else:
                envelope = self._sign(msg.PLAY3, self._play3_body(hand, action))
        elif isinstance(action, Draw):
            if not view.can_draw():
                raise IllegalAction(
                    self.seat,
                    phrase("session.action.draw"),
                    phrase("session.why.drawing_not_allowed_now"),
                )
            envelope = self._sign(msg.DRAW, (hand.number,))
        elif isinstance(action, Pass):
            if not view.can_pass():
                raise IllegalAction(
                    self.seat,
                    phrase("session.action.pass"),
                    phrase("session.why.passing_not_allowed_now"),
                )
            envelope = self._sign(msg.PASS, (hand.number,))
        elif isinstance(action, Skip):
            if not view.can_skip():
                raise IllegalAction(
                    self.seat,
                    phrase("session.action.skip"),
                    phrase("session.why.there_no_second_double_decline"),
                )
            envelope = self._sign(msg.SKIP, (hand.number,))
        else:
            raise IllegalAction(self.seat, repr(action), phrase("session.why.not_action"))
        self._intake.take(envelope, update, own=True)
        return update

    def send(self, envelope: Envelope) -> Update:
        """Accept a message this peer signed itself, then send it and whatever follows it."""
        update = Update()
        self._intake.take(envelope, update, own=True)
        return update

    def stall(self, seat: int, waited: float) -> Update:
        """Name `seat` as stalling after `waited` seconds without its expected message.

        The table stops for this peer (as for any blame); the transcript so far is the evidence.
        """
        update = Update()
        expected = self.expected
        if self.halted or expected is None or expected[0] != seat or seat == self.seat:
            return update
        seconds, awaited = format(waited, ".0f"), expected[1][0].name
        reason = phrase("session.why.stalled", seconds=seconds, awaited=awaited)
        if self.phase is Phase.REVEAL and seat == self.players - 1:
            reason = phrase(
                "session.why.stalled_lottery", seconds=seconds, awaited=awaited, code=LOTTERY_STALL
            )
        index = len(self.transcript) - 1
        blame = Blame(seat, reason, "stall", index=index, expected=expected[1][0].name)
        self._intake.halt(blame, update)
        return update

    # -- v4: a seat leaves, the table goes on (PROTOCOL.md §16) ----------------------------

    def goodbye(self, seat: int | None = None) -> Update:
        """Say that `seat` is gone: this peer's own seat by default ("left"), or the seat the
        table waits for, past the stall limit ("stalled"). The hand in play becomes void.

        ValueError when the table cannot take it now (not v4, no hand in play, or `seat` is not
        the one the table waits for): nothing is signed then.
        """
        own = self.seat
        if own is None:
            raise ValueError("an observer says no goodbye")
        gone = own if seat is None else seat
        expected = self.expected
        if self.version <= THIRD_VERSION or self.phase not in HAND_PHASES or self.hand is None:
            raise ValueError(f"no goodbye while the table is at {self.phase.value}")
        if gone != own and (expected is None or expected[0] != gone):
            raise ValueError(f"the table does not wait for seat {gone + 1}")
        reason = LEFT if gone == own else STALLED
        return self.send(self._sign(GOODBYE, (self.hand.number, gone, reason)))

    def propose_continue(self, name: str, key: PublicIdentity) -> Update:
        """As the lowest remaining seat after a goodbye: propose that `key` (a fresh key, the
        host's bot) holds the leaver's seat under `name` from the next hand on."""
        hand, expected = self.hand, self.expected
        if self.phase is not Phase.LEAVING or expected is None or expected[0] != self.seat:
            raise ValueError("this peer does not propose the continuation now")
        assert hand is not None
        proposal = leaving.proposal(self, name, key)
        return self.send(self._sign(CONTINUE, proposal.to_body()))

    def agree_to_continue(self) -> Update:
        """Sign the proposed continuation (when `agrees_by_default` is off: the player said yes)."""
        expected = self.expected
        if self.phase is not Phase.CONTINUE or expected is None or expected[0] != self.seat:
            raise ValueError("there is no continuation for this seat to sign now")
        return self.send(duties.continue_sign_message(self))

    def ask_back(self, seat: int, name: str, key: PublicIdentity, asked: bytes) -> Update:
        """§16.1: the player who left `seat` asks it back under `name` with the fresh `key`
        (`asked`: its request, signed by its old key). This peer, the lowest seat other than
        `seat`, puts it on the table at the start of a hand: now if one has just begun, else at
        the next one. ValueError when the request is not valid here (nothing is kept then)."""
        own = self.seat
        if own is None or self.version <= THIRD_VERSION or not 0 <= seat < self.players:
            raise ValueError("this peer cannot put a request to come back on the table")
        if own != come_back_relay.proposer_of(self.players, seat):
            raise ValueError(
                f"seat {own + 1} is not the one that proposes seat {seat + 1}'s return"
            )
        fault = come_back_relay.request_fault(self, seat, name, key, asked)
        if fault is not None:
            raise ValueError(fault)
        hand = self.hand
        self.coming_back = ComeBack(hand.number if hand else 0, seat, name, key, asked, own)
        update = Update()
        if self.finished:
            self.coming_back = None  # the match is over: nothing to come back to
            return update
        self._send_automatic(update)
        return update

    def _come_back_message(self) -> Envelope | None:
        """§16.1: our come_back now, if a request waits and a hand has just begun (still
        valid: the seat's key may have changed since it was asked); else None."""
        asked, hand, own = self.coming_back, self.hand, self.seat
        if asked is None or hand is None or own is None or self.phase is not Phase.COMMIT:
            return None
        if len(hand.commits) != own:  # our own commit is next: the hand has just begun
            return None
        self.coming_back = None
        old = self.transcript.previous_key(asked.seat)
        request = come_back_request(self.transcript.table_id, asked.seat, asked.name, asked.key)
        if old is None or not old.verify(asked.asked, request):
            return None
        if self.transcript.held_before(asked.key):
            return None
        body = (hand.number, asked.seat, asked.name, asked.key.raw, asked.asked)
        return self._sign(COME_BACK, body)

    def take_seat(self, seat: int, identity: Identity) -> Update:
        """An observer that followed the record up to a continuation becomes the new holder of
        `seat` (its key is `identity`'s); returns what it must send now (its signature)."""
        if self.seat is not None or self.transcript.keys[seat] != identity.public:
            raise ValueError(f"identity does not hold seat {seat + 1} now")
        self.seat, self._identity = seat, identity
        return self.start()

    def _stop_for_goodbye(self, seat: int, expected: str) -> list[Event]:
        """v4, when this peer does not go on: the table stops naming the seat that left."""
        index = len(self.transcript) - 1
        reason = phrase("session.why.left_no_going_on")
        blame = Blame(seat, reason, "stall", index=index, expected=expected)
        self.blame = blame
        self._move(Trigger.BLAMED)
        return [CheatingDetected(blame)]

    def _leave_seat(self) -> None:
        """This peer's seat has a new holder (a continuation): it follows the table as an
        observer from here on."""
        self.seat, self._identity = None, None

    def admit(self, envelope: Envelope) -> list[Event]:
        """Validate and append one message or raise InvalidMessage naming its seat (for verify).

        Unlike `receive`, nothing is buffered or forgiven: the next message must fit exactly.
        """
        return self._intake.admit(envelope)

    def messages_after(self, head: bytes) -> list[bytes]:
        """Encoded messages that follow `head` here, to help a peer catch up.

        For a head this transcript does not hold (the peer is on a fork, or far behind) it is
        every message after the genesis: the peer then finds where the chains part, which
        exposes an equivocation if there was one.
        """
        entries = self.transcript.entries
        if head == self.transcript.head:
            return []
        for index, entry in enumerate(entries):
            if entry.envelope.head == head:
                return [e.encoded for e in entries[index:]]
        return [e.encoded for e in entries[1:]]

    # -- for the session's own modules -------------------------------------------------------

    def _move(self, trigger: Trigger) -> None:
        """The one place the phase changes: to where `phases.TRANSITIONS` says `trigger` leads."""
        self.phase = next_phase(self.phase, trigger)

    def _after_genesis_sign(self) -> list[Event]:
        if next_genesis_signer(self.transcript) is not None:
            return []
        return [TableReady(), *self._begin_hand()]

    def _begin_hand(self) -> list[Event]:
        """Deal the next hand: fresh keys under the next wire hand number."""
        self._hands_begun += 1
        number = self._hands_begun
        ctx = HandContext(self.transcript.table_id, number, self.players)
        keys = None
        if self.seat is not None:
            keys = self._hand_keys(ctx, self.seat, self._rng)
        size = self.rules.hand_size(self.players)
        self.hand = HandInPlay(number, ctx, size, keys)
        self.hand.held = [list(range(s * size, (s + 1) * size)) for s in range(self.players)]
        self.hand.next_position = self.players * size
        self._move(Trigger.HAND_BEGINS)
        return [HandStarted(number)]

    # Hooks (the benchmark meters them; tests make a peer lie through them).

    def _audit(self, hand: HandInPlay) -> list[Event]:
        return audit.audit(self, hand)

    def _send_automatic(self, update: Update) -> None:
        duties.send_automatic(self, update)

    def _automatic_message(self) -> Envelope:
        return duties.automatic_message(self)

    def _sign(self, mtype: MessageType, body: Sequence[Wire]) -> Envelope:
        assert self._identity is not None and self.seat is not None
        return self.transcript.sign_next(self._identity, self.seat, mtype, body)

    def _play_body(self, hand: HandInPlay, play: Play) -> tuple[Wire, ...]:
        return legacy.play_body(self, hand, play)

    def _play3_body(self, hand: HandInPlay, play: Play) -> tuple[Wire, ...]:
        return duties.play3_body(self, hand, play)
