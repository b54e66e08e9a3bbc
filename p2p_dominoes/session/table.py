"""The table session: one peer's sans-I/O state machine over the signed, hash-chained transcript.

Signed messages go in (`receive`), the local player's actions go in (`act`); events and the
messages this peer must broadcast come out. Every message, this peer's own included, goes
through the same validation before it joins the transcript: the expected seat and type, the
mental-poker proofs, and the public rules. What needs hidden tiles is checked at the end-of-hand
audit, when every seat has revealed its per-hand secret. A seat whose signed message fails is
named with the reason and the table stops; an honest peer never raises on any input.

The order of a hand (PROTOCOL.md §10):
commit → reveal → shuffles in seat order → deal shares in seat order → (lead claims) → turns
(a draw is followed by the other seats' shares for the drawn position) → hand reveals → secrets →
audit → next hand, until the match (or the number of hands the genesis fixes) is over.

Protocol v2 (v1 is kept for old logs): lead claims come in any hand whose opening the deal
decides, each beating the best so far or nil, stopping at the rank-0 tile; a hand nobody can open
goes from the claims straight to the secrets and is dealt again (void); every turn message,
`skip` included, goes through the engine's public turn machine, which says whose turn it is.

Protocol v3 (v2 is kept for old logs): a play and a lead claim show the tile with an OR-proof
that it is at one of the seat's positions, never which one (PROTOCOL.md §10.6); the positions a
seat holds are the ones it was ever dealt or drew, and a tile may be played once.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Final

from p2p_dominoes import mental
from p2p_dominoes.engine import (
    DRAW,
    PASS,
    TILES,
    Action,
    Draw,
    FirstOpener,
    IllegalAction,
    InvalidRecord,
    Match,
    MatchOutcome,
    Pass,
    PeerView,
    Play,
    PublicHand,
    Rules,
    Tile,
    highest_double_lead,
    record_of,
)
from p2p_dominoes.engine.actions import SKIP, Skip
from p2p_dominoes.engine.legality import must_play_drawn
from p2p_dominoes.engine.opening import Opening, best_of
from p2p_dominoes.engine.turns import placement_points
from p2p_dominoes.mental import (
    SYSTEM_RANDOM,
    Branch,
    Deck,
    DecryptionShare,
    HandContext,
    HandKeys,
    InvalidMessageError,
    JointKey,
    KeyCommit,
    KeyReveal,
    RandomSource,
    SecretReveal,
    ShuffleStep,
    Step,
    StepKind,
    TileReveal,
)
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.envelope import FIRST_VERSION, SECOND_VERSION, Envelope, MessageType
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.events import (
    ActionTaken,
    Blame,
    CheatingDetected,
    Event,
    HandEnded,
    HandRedealt,
    HandStarted,
    MatchEnded,
    OpenerChosen,
    ShuffleVerified,
    TableReady,
    TilesDealt,
    Update,
)
from p2p_dominoes.session.genesis import GENESIS_SIGN
from p2p_dominoes.session.genesis_signing import (
    check_setup_message,
    next_genesis_signer,
    sign_genesis,
    transcript_table_code,
)
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.places import BadPlace, decode_place, encode_place
from p2p_dominoes.session.schema import Wire
from p2p_dominoes.session.table_code import TableCode, opens_commitment
from p2p_dominoes.session.transcript import EquivocationDetected, ReplayedMessage, Transcript

MAX_BUFFERED_PER_SEAT = 64
"""Messages kept per sending seat while they wait for their predecessor (they came early)."""


class Phase(enum.Enum):
    SETUP = "setup"
    COMMIT = "commit"
    REVEAL = "reveal"
    SHUFFLE = "shuffle"
    DEAL = "deal"
    LEAD_CLAIM = "lead claim"
    TURNS = "turns"
    DRAW_SHARES = "draw shares"
    HAND_REVEAL = "hand reveal"
    SECRET_REVEAL = "secret reveal"  # noqa: S105 - a phase name, not a password
    OVER = "over"
    HALTED = "halted"


_PHASE_TYPES: dict[Phase, tuple[MessageType, ...]] = {
    Phase.SETUP: (GENESIS_SIGN,),
    Phase.COMMIT: (msg.KEY_COMMIT,),
    Phase.REVEAL: (msg.KEY_REVEAL,),
    Phase.SHUFFLE: (msg.SHUFFLE,),
    Phase.DEAL: (msg.DEAL,),
    Phase.LEAD_CLAIM: (msg.LEAD_CLAIM,),
    Phase.TURNS: (msg.PLAY, msg.DRAW, msg.PASS, msg.SKIP),
    Phase.DRAW_SHARES: (msg.DRAW_SHARE,),
    Phase.HAND_REVEAL: (msg.HAND_REVEAL,),
    Phase.SECRET_REVEAL: (msg.SECRET_REVEAL,),
}
_V3_PHASE_TYPES: dict[Phase, tuple[MessageType, ...]] = {
    **_PHASE_TYPES,
    Phase.LEAD_CLAIM: (msg.LEAD_CLAIM3,),
    Phase.TURNS: (msg.PLAY3, msg.DRAW, msg.PASS, msg.SKIP),
}


def _text(tile: Tile | None) -> str:
    return "nothing" if tile is None else tile.text


_Effect = Callable[[], list[Event]]
"""The state change a validated message makes once it has joined the transcript."""


def _bad(code: str, reason: str) -> InvalidMessage:
    return InvalidMessage(code, reason)


@dataclass
class _Hand:
    """Everything one hand has established so far, public and (for this peer) private."""

    number: int
    ctx: HandContext
    size: int
    keys: HandKeys | None
    commits: list[KeyCommit] = field(default_factory=list)
    reveals: list[KeyReveal] = field(default_factory=list)
    joint: JointKey | None = None
    decks: list[Deck] = field(default_factory=list)
    shuffles: list[ShuffleStep] = field(default_factory=list)
    deals: int = 0
    shares: dict[int, list[DecryptionShare]] = field(default_factory=dict)
    all_shares: list[DecryptionShare] = field(default_factory=list)
    tile_reveals: list[TileReveal] = field(default_factory=list)
    claims: list[Tile | None] = field(default_factory=list)
    """Each lead claim in seat order: the revealed tile, or None (v2: nothing beats the bound)."""
    rank: tuple[Tile, ...] = ()
    """v2: the tiles this hand is opened by, best first (empty: the deal does not decide)."""
    bound: int = 0
    """v2: a claim must rank better (lower) than this index; len(rank) means "nothing yet"."""
    claim_bounds: list[int] = field(default_factory=list)
    """v2: the bound each claiming seat saw, for the audit of its claim."""
    unopened: bool = False
    """v2: the claim phase found no opener (a redeal, or a lie the audit will find)."""
    held: list[list[int]] = field(default_factory=list)
    """Each seat's positions: v1/v2 those it still holds; v3 every one it was dealt or drew
    (nobody else learns which of them a play came from)."""
    tiles_played: dict[Tile, int] = field(default_factory=dict)
    """v3: each tile played this hand and its seat (a tile is played once)."""
    openings: dict[int, bytes] = field(default_factory=dict, metadata={"cache": True})
    """v3: the partial opening of each held position, for the OR-proofs: a cache, filled only
    once every other seat's share of that position is in (so a rejected message may fill it
    without changing anything a peer decides)."""
    known: dict[int, Tile] = field(default_factory=dict)
    next_position: int = 0
    public: PublicHand | None = None
    drawer: int | None = None
    draw_sharers: list[int] = field(default_factory=list)
    pending: Tile | None = None
    forced_draw: bool = False
    """The draw in progress is a forced one (X3): its tile need not be played at once."""
    played: dict[int, Tile] = field(default_factory=dict)
    revealed: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    secrets: list[SecretReveal] = field(default_factory=list)
    claim_indices: list[int] = field(default_factory=list)
    action_indices: list[int] = field(default_factory=list)
    """The transcript index of each public action (play, draw, pass), for audit blame."""

    @property
    def deck(self) -> Deck:
        return self.decks[-1]

    def shares_for(self, position: int) -> list[DecryptionShare]:
        return self.shares.get(position, [])


_Validator = Callable[["TableSession", "_Hand", Envelope, bool], _Effect]

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
        self._phase_types = _PHASE_TYPES if self.version <= SECOND_VERSION else _V3_PHASE_TYPES
        try:
            self.rules = Rules.from_wire(genesis.rules)
            self.rules.check_players(self.players)
        except InvalidRecord as exc:
            raise InvalidMessage("bad-genesis", f"the genesis rules are invalid: {exc}") from None
        if seat is not None and (identity is None or genesis.seats[seat].key != identity.public):
            raise ValueError(f"identity does not hold seat {seat + 1}")
        if seat is not None and (
            table_nonce is None
            or not opens_commitment(
                genesis.seats[seat].key, table_nonce, genesis.seats[seat].commitment
            )
        ):
            raise ValueError(f"the table nonce does not open seat {seat + 1}'s commitment")
        self._table_nonce = table_nonce
        self.max_hands = genesis.max_hands
        self._hand_keys = hand_keys or mental.new_hand_keys
        self.match = Match(self.rules, self.players)
        self._hands_begun = 0
        """Hands begun, void ones included: the wire's hand number (a void hand is redealt
        under the next number, with fresh keys)."""
        self.phase = Phase.SETUP
        self.hand: _Hand | None = None
        self.blame: Blame | None = None
        self._future: dict[bytes, list[Envelope]] = {}
        self._via: int | None = None
        """The seat that delivered the message being taken (see `receive`)."""
        self._effect: Callable[[], list[Event]] | None = None
        if len(transcript) != 1:
            raise ValueError("a session starts from a transcript that holds only the genesis")

    # -- what is expected next ------------------------------------------------------------

    @property
    def expected(self) -> tuple[int, tuple[MessageType, ...]] | None:
        """The seat whose message comes next and the types it may send, or None when done."""
        phase, hand = self.phase, self.hand
        if phase is Phase.SETUP:
            signer = next_genesis_signer(self.transcript)
            return None if signer is None else (signer, _PHASE_TYPES[phase])
        if phase in (Phase.OVER, Phase.HALTED) or hand is None:
            return None
        types = self._phase_types[phase]
        if phase is Phase.COMMIT:
            return len(hand.commits), types
        if phase is Phase.REVEAL:
            return len(hand.reveals), types
        if phase is Phase.SHUFFLE:
            return len(hand.shuffles), types
        if phase is Phase.DEAL:
            return hand.deals, types
        if phase is Phase.LEAD_CLAIM:
            return len(hand.claims), types
        if phase is Phase.TURNS:
            assert hand.public is not None
            return hand.public.turn, types
        if phase is Phase.DRAW_SHARES:
            return hand.draw_sharers[0], types
        if phase is Phase.HAND_REVEAL:
            return len(hand.revealed), types
        return len(hand.secrets), types

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
        return self.phase in (Phase.OVER, Phase.HALTED)

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
        update = Update()
        if self.phase is Phase.HALTED:
            return update
        try:
            envelope = Envelope.decode(data, self.transcript.registry)
        except InvalidMessage:
            return update
        self._via = via
        try:
            self._take(envelope, update)
        finally:
            self._via = None
        return update

    def act(self, action: Action) -> Update:
        """The local player's action; raises IllegalAction (changing nothing) if not allowed."""
        update = Update()
        hand = self.hand
        if not self.awaiting_action or hand is None or self.seat is None:
            raise IllegalAction(self.seat or 0, str(action), "it is not this player's turn")
        view = self.view()
        if isinstance(action, Play):
            action = hand.public.normalise(action) if hand.public else action
            if action not in view.legal_plays():
                raise IllegalAction(self.seat, str(action), "that play is not legal now")
            if action.along and self.version == FIRST_VERSION:
                raise IllegalAction(self.seat, str(action), "protocol version 1 has no along")
            if self.version <= SECOND_VERSION:
                envelope = self._sign(msg.PLAY, self._play_body(hand, action))
            else:
                envelope = self._sign(msg.PLAY3, self._play3_body(hand, action))
        elif isinstance(action, Draw):
            if not view.can_draw():
                raise IllegalAction(self.seat, "draw", "drawing is not allowed now")
            envelope = self._sign(msg.DRAW, (hand.number,))
        elif isinstance(action, Pass):
            if not view.can_pass():
                raise IllegalAction(self.seat, "pass", "passing is not allowed now")
            envelope = self._sign(msg.PASS, (hand.number,))
        elif isinstance(action, Skip):
            if not view.can_skip():
                raise IllegalAction(self.seat, "skip", "there is no second double to decline")
            envelope = self._sign(msg.SKIP, (hand.number,))
        else:
            raise IllegalAction(self.seat, repr(action), "that is not an action")
        self._take(envelope, update, own=True)
        return update

    def send(self, envelope: Envelope) -> Update:
        """Accept a message this peer signed itself, then send it and whatever follows it."""
        update = Update()
        self._take(envelope, update, own=True)
        return update

    def stall(self, seat: int, waited: float) -> Update:
        """Name `seat` as stalling after `waited` seconds without its expected message.

        The table stops for this peer (as for any blame); the transcript so far is the evidence.
        """
        update = Update()
        expected = self.expected
        if self.halted or expected is None or expected[0] != seat or seat == self.seat:
            return update
        reason = f"sent nothing for {waited:.0f} s when its {expected[1][0].name} was expected"
        if self.phase is Phase.REVEAL and seat == self.players - 1:
            reason += f" ({LOTTERY_STALL}: the last lottery share, after it had seen every other)"
        index = len(self.transcript) - 1
        self._halt(Blame(seat, reason, "stall", index=index, expected=expected[1][0].name), update)
        return update

    def admit(self, envelope: Envelope) -> list[Event]:
        """Validate and append one message or raise InvalidMessage naming its seat (for verify).

        Unlike `receive`, nothing is buffered or forgiven: the next message must fit exactly.
        """
        if self.phase is Phase.HALTED:
            raise InvalidMessage("halted", "the table stopped at an earlier message")
        self._effect = None
        self.transcript.append(envelope, check=self._checker(own=False))
        effect, self._effect = self._effect, None
        events: list[Event] = effect() if effect is not None else []
        if self.blame is not None:
            blame = self.blame
            raise InvalidMessage(blame.code, blame.reason, seat=blame.seat, index=blame.index)
        return events

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

    # -- accepting a message ----------------------------------------------------------------

    def _take(self, envelope: Envelope, update: Update, own: bool = False) -> None:
        """Accept `envelope` (and anything buffered behind it), then send what is ours to send."""
        accepted = self._accept(envelope, update, own)
        self._via = None  # messages kept for later were delivered by whoever sent them
        if not accepted:
            return
        if own:
            update.outgoing.append(envelope.encode())
        self._drain_buffer(update)
        self._send_automatic(update)

    def _accept(self, envelope: Envelope, update: Update, own: bool = False) -> bool:
        transcript = self.transcript
        self._effect = None
        try:
            transcript.append(envelope, check=self._checker(own))
        except ReplayedMessage:
            return False  # a duplicate delivery: harmless, already applied
        except EquivocationDetected as exc:
            evidence = exc.evidence
            self._halt(
                Blame(
                    exc.evidence.seat,
                    "signed two different messages for the same place in the transcript",
                    "equivocation",
                    (evidence.first.encode(), evidence.second.encode()),
                ),
                update,
            )
            return False
        except InvalidMessage as exc:
            if exc.code == "wrong-head" and envelope.head not in self._known_heads():
                self._buffer(envelope)
                return False
            if exc.seat is None:
                impostor = self._impersonator(envelope) if exc.code == "bad-signature" else None
                if impostor is None:
                    return False  # not authenticated: nobody provably sent it
                reason = f"signed a message as seat {envelope.seat + 1} with its own key"
                self._halt(Blame(impostor, reason, "impersonation", (envelope.encode(),)), update)
                return False
            self._halt(Blame(exc.seat, exc.reason, exc.code, (envelope.encode(),)), update)
            return False
        effect = self._effect
        self._effect = None
        if effect is not None:
            update.events.extend(effect())
        return True

    def _impersonator(self, envelope: Envelope) -> int | None:
        """The seated player whose key did sign a message that claims another seat."""
        for seat, key in enumerate(self.transcript.keys):
            if seat != envelope.seat and key.verify(envelope.signature, envelope.signed_bytes()):
                return seat
        return None

    def _known_heads(self) -> set[bytes]:
        return {e.envelope.head for e in self.transcript.entries} | {self.transcript.head}

    def _buffer(self, envelope: Envelope) -> None:
        """Keep an authenticated early message; each seat has its own quota, so a peer that
        floods the buffer with messages on heads that never come crowds out only itself."""
        held = sum(
            1 for waiting in self._future.values() for e in waiting if e.seat == envelope.seat
        )
        if held < MAX_BUFFERED_PER_SEAT:
            self._future.setdefault(envelope.head, []).append(envelope)

    def _drain_buffer(self, update: Update) -> None:
        while not self.halted and self.transcript.head in self._future:
            waiting = self._future.pop(self.transcript.head)
            accepted = False
            for envelope in waiting:
                if self.halted:
                    return
                if self._accept(envelope, update):
                    accepted = True
                    break
            if not accepted:
                return

    def _checker(self, own: bool) -> Callable[[Transcript, Envelope], None]:
        def check(transcript: Transcript, envelope: Envelope) -> None:
            self._effect = self._validate(envelope, own)

        return check

    def _halt(self, blame: Blame, update: Update) -> None:
        if self.blame is not None:
            return  # the first blame stands
        if self._via is not None and self._via not in (blame.seat, self.seat) and blame.evidence:
            blame = dataclasses.replace(blame, via=self._via)
        self.blame = blame
        self.phase = Phase.HALTED
        self._future.clear()
        update.events.append(CheatingDetected(blame))
        # Blame reaches everyone: the evidence is signed by the blamed seat and every peer can
        # re-check it on its own transcript, so a cheat sent to this peer alone stops them all.
        update.forwarded.extend(blame.evidence)

    # -- validation: each returns the state change to make once the message is appended -----

    def _validate(self, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        expected = self.expected
        kind = envelope.type
        if expected is None:
            if self.phase is Phase.SETUP:
                check_setup_message(self.transcript, envelope)
            raise _bad("out-of-turn", f"{kind.name}: the table expects no more messages")
        seat, types = expected
        if kind not in types or envelope.seat != seat:
            wanted = " or ".join(t.name for t in types)
            raise _bad(
                "out-of-turn",
                f"{kind.name} from seat {envelope.seat + 1}; "
                f"expected {wanted} from seat {seat + 1}",
            )
        if self.phase is Phase.SETUP:
            check_setup_message(self.transcript, envelope)
            return self._after_genesis_sign
        hand = self.hand
        assert hand is not None
        if envelope.field("hand") != hand.number:
            raise _bad(
                "wrong-hand",
                f"{kind.name} names hand {envelope.field('hand')!r}, not {hand.number}",
            )
        try:
            return self._VALIDATORS[kind.code](self, hand, envelope, own)
        except InvalidMessageError as exc:
            raise _bad("bad-proof", f"{exc.step}: {exc.reason}") from None
        except IllegalAction as exc:
            raise _bad("illegal-action", f"cannot {exc.action}: {exc.rule}") from None
        except InvalidRecord as exc:
            raise _bad("illegal-action", str(exc)) from None

    def _after_genesis_sign(self) -> list[Event]:
        if next_genesis_signer(self.transcript) is not None:
            return []
        return [TableReady(), *self._begin_hand()]

    def _begin_hand(self) -> list[Event]:
        self._hands_begun += 1
        number = self._hands_begun
        ctx = HandContext(self.transcript.table_id, number, self.players)
        keys = None
        if self.seat is not None:
            keys = self._hand_keys(ctx, self.seat, self._rng)
        size = self.rules.hand_size(self.players)
        self.hand = _Hand(number, ctx, size, keys)
        self.hand.held = [list(range(s * size, (s + 1) * size)) for s in range(self.players)]
        self.hand.next_position = self.players * size
        self.phase = Phase.COMMIT
        return [HandStarted(number)]

    def _v_key_commit(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        commit = KeyCommit.from_bytes(self._bin(envelope, "commit"), envelope.seat)

        def apply() -> list[Event]:
            hand.commits.append(commit)
            if len(hand.commits) == self.players:
                self.phase = Phase.REVEAL
            return []

        return apply

    def _v_key_reveal(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        reveal = KeyReveal.from_bytes(self._bin(envelope, "reveal"), envelope.seat)
        mental.check_key_reveal(hand.ctx, hand.commits[envelope.seat], reveal)
        joint = None
        if len(hand.reveals) + 1 == self.players:
            joint = mental.combine_keys(hand.ctx, hand.commits, [*hand.reveals, reveal])

        def apply() -> list[Event]:
            hand.reveals.append(reveal)
            if joint is not None:
                hand.joint = joint
                hand.decks.append(mental.starting_deck(joint))
                self.phase = Phase.SHUFFLE
            return []

        return apply

    def _v_shuffle(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        step = ShuffleStep.from_bytes(self._bin(envelope, "step"), envelope.seat)
        assert hand.joint is not None
        deck = step.deck if own else mental.check_shuffle(hand.ctx, step, hand.joint, hand.deck)

        def apply() -> list[Event]:
            hand.shuffles.append(step)
            hand.decks.append(deck)
            done = len(hand.shuffles)
            if done == self.players:
                self.phase = Phase.DEAL
            return [ShuffleVerified(envelope.seat, done, self.players)]

        return apply

    def _dealt_positions(self, hand: _Hand, sharer: int) -> list[int]:
        return [p for s in range(self.players) if s != sharer for p in hand.held[s]]

    def _v_deal(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        sharer = envelope.seat
        raw = envelope.field("shares")
        assert isinstance(raw, tuple)
        positions = self._dealt_positions(hand, sharer)
        if len(raw) != len(positions):
            raise _bad("bad-deal", f"{len(raw)} shares; the deal needs {len(positions)}")
        shares = []
        assert hand.joint is not None
        for position, data in zip(positions, raw, strict=True):
            assert isinstance(data, bytes)
            share = DecryptionShare.from_bytes(data, sharer)
            if share.position != position:
                raise _bad(
                    "bad-deal", f"a share for position {share.position}, expected {position}"
                )
            if not own:
                mental.check_share(hand.ctx, share, hand.joint, hand.deck)
            shares.append(share)

        def apply() -> list[Event]:
            for share in shares:
                hand.shares.setdefault(share.position, []).append(share)
            hand.all_shares.extend(shares)
            hand.deals += 1
            if hand.deals < self.players:
                return []
            events: list[Event] = []
            if self.seat is not None:
                events.append(TilesDealt(self._open_own(hand, hand.held[self.seat])))
            return [*events, *self._open_hand(hand)]

        return apply

    # -- who opens: v2 lead claims (PROTOCOL.md §10.5) ----------------------------------------

    def _lottery(self, hand: _Hand) -> int:
        assert hand.joint is not None
        return int.from_bytes(hand.joint.lottery, "big")

    def _open_hand(self, hand: _Hand) -> list[Event]:
        """After the deal: a claim phase when the deal decides the opener, else turns."""
        if self.version == FIRST_VERSION:
            if (
                self.match.opening_number == 1
                and self.rules.first_opener is FirstOpener.HIGHEST_DOUBLE
            ):
                self.phase = Phase.LEAD_CLAIM
                return []
            opener, must_lead = self.match.next_opener([], self._lottery(hand))
            return self._start_turns(hand, opener, must_lead)
        hand.rank = self.match.rank_list()
        if hand.rank:
            full_deal = self.players * hand.size == len(TILES)
            hand.bound = 1 if full_deal else len(hand.rank)
            self.phase = Phase.LEAD_CLAIM
            return []
        return self._opening_found(hand, self.match.unclaimed_opening(self._lottery(hand)))

    def _opening_found(self, hand: _Hand, opening: Opening) -> list[Event]:
        if opening.void or opening.seat is None:
            hand.unopened = True
            self.phase = Phase.SECRET_REVEAL  # nothing was played: the secrets open every tile
            return []
        return self._start_turns(hand, opening.seat, opening.must_lead)

    def _end_claims(self, hand: _Hand) -> list[Event]:
        """The best claim's seat leads its tile; with no claim, the fallback decides."""
        best = [(self._rank_of(hand, t), s) for s, t in enumerate(hand.claims) if t is not None]
        if best:
            index, seat = min(best)
            return self._start_turns(hand, seat, hand.rank[index])
        try:
            opening = self.match.fallback_opening(self._lottery(hand))
        except InvalidRecord:  # a fallback the deal decides: some seat hid its claim
            opening = Opening(None)
        return self._opening_found(hand, opening)

    @staticmethod
    def _rank_of(hand: _Hand, tile: Tile) -> int:
        """Where `tile` stands in the hand's rank list (len(rank) when it is not ranked)."""
        return next((i for i, t in enumerate(hand.rank) if t is tile), len(hand.rank))

    def _open_own(self, hand: _Hand, positions: Sequence[int]) -> tuple[Tile, ...]:
        assert hand.keys is not None and hand.joint is not None
        for position in positions:
            index = mental.open_position(
                hand.ctx, hand.keys, hand.joint, hand.deck, position, hand.shares_for(position)
            )
            hand.known[position] = TILES[index]
        return tuple(hand.known[p] for p in positions)

    def _start_turns(self, hand: _Hand, opener: int, must_lead: Tile | None) -> list[Event]:
        hand.public = PublicHand(self.rules, self.players, opener, must_lead)
        hand.public.match_scores = self.match.seat_scores  # a seat reads its pair's total
        self.phase = Phase.TURNS
        return [OpenerChosen(opener, must_lead)]

    def _check_reveal(
        self, hand: _Hand, envelope: Envelope, data: Wire, held: Sequence[int]
    ) -> tuple[TileReveal, Tile]:
        assert isinstance(data, bytes) and hand.joint is not None
        reveal = TileReveal.from_bytes(data, envelope.seat)
        if reveal.position not in held:
            raise _bad(
                "not-held", f"claims a tile at position {reveal.position}, which it does not hold"
            )
        index = mental.check_tile_reveal(
            hand.ctx,
            reveal,
            hand.joint,
            hand.deck,
            hand.shares_for(reveal.position),
            shares_checked=True,
        )
        return reveal, TILES[index]

    def _v_lead_claim(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        data = envelope.field("reveal")
        if data is None and self.version == FIRST_VERSION:
            raise _bad("bad-body", "lead_claim.reveal: a version 1 claim reveals a tile")
        checked = None
        if data is not None:
            checked = self._check_reveal(hand, envelope, data, hand.held[envelope.seat])
            if self.version != FIRST_VERSION:
                tile = checked[1]
                if self._rank_of(hand, tile) >= hand.bound:
                    raise IllegalAction(envelope.seat, f"claim {tile.text}", self._beat(hand))

        def apply() -> list[Event]:
            hand.claim_indices.append(len(self.transcript) - 1)
            hand.claim_bounds.append(hand.bound)
            if checked is None:
                hand.claims.append(None)
            else:
                hand.tile_reveals.append(checked[0])
                hand.claims.append(checked[1])
            if self.version == FIRST_VERSION:
                if len(hand.claims) < self.players:
                    return []
                tiles = [[t] for t in hand.claims if t is not None]
                opener, must_lead = highest_double_lead(tiles)
                return self._start_turns(hand, opener, must_lead)
            if checked is not None:
                hand.bound = self._rank_of(hand, checked[1])
            if hand.bound == 0 or len(hand.claims) == self.players:
                return self._end_claims(hand)  # early stop: nothing beats the rank-0 tile
            return []

        return apply

    @staticmethod
    def _beat(hand: _Hand) -> str:
        if hand.bound >= len(hand.rank):
            return "a claim must be a tile that opens this hand"
        return f"a claim must beat {hand.rank[hand.bound].text}"

    def _v_play(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        seat = envelope.seat
        assert hand.public is not None
        reveal, tile = self._check_reveal(hand, envelope, envelope.field("reveal"), hand.held[seat])
        play = hand.public.check_play(seat, self._play_of(envelope, tile))
        # Threes for luck scores a tile drawn in this turn apart: this turn's draws took the
        # last positions dealt out, so the reveal's position says it publicly.
        from_draw = reveal.position >= hand.next_position - hand.public.draws_this_turn

        def apply() -> list[Event]:
            hand.held[seat].remove(reveal.position)
            hand.tile_reveals.append(reveal)
            hand.played[reveal.position] = tile
            return self._lay(hand, seat, play, from_draw)

        return apply

    def _lay(self, hand: _Hand, seat: int, play: Play, from_draw: bool) -> list[Event]:
        """Apply a checked play of any version to the public hand (the turn's end included)."""
        assert hand.public is not None
        hand.public.play(seat, play, from_draw)
        hand.action_indices.append(len(self.transcript) - 1)
        if seat == self.seat:
            hand.pending = None
        if hand.public.over:
            self.phase = Phase.HAND_REVEAL
        return [ActionTaken(seat, play)]

    def _play_of(self, envelope: Envelope, tile: Tile) -> Play:
        """The play a `play` or `play3` message makes with `tile`: its place fields are read
        here for both versions, so a field added to the place reaches both."""
        try:
            place = decode_place(envelope.field("at"), envelope.field("side"))
        except BadPlace as exc:
            raise _bad("bad-play", str(exc)) from None
        along = envelope.field("along")
        if along is not None and (self.version == FIRST_VERSION or along is not True):
            raise _bad("bad-play", "only a version 2 play may say along, and only as true")
        return Play(tile, place, along is True)

    # -- v3: plays and claims that show the tile, not its position (PROTOCOL.md §10.6) --------

    def _opening(self, hand: _Hand, position: int, owner: int) -> bytes:
        """The partial opening of `owner`'s `position` (its shares were checked on arrival)."""
        opening = hand.openings.get(position)
        if opening is None:
            assert hand.joint is not None
            opening = mental.partial_opening(
                hand.ctx,
                hand.joint,
                hand.deck,
                position,
                owner,
                hand.shares_for(position),
                checked=True,
            )
            hand.openings[position] = opening
        return opening

    def _branches(self, hand: _Hand, seat: int, positions: Sequence[int]) -> tuple[Branch, ...]:
        openings = {p: self._opening(hand, p, seat) for p in positions}
        return mental.branches_for(hand.deck, positions, openings)

    @staticmethod
    def _drawn_now(hand: _Hand) -> list[int]:
        """The positions drawn in this turn (the last ones handed out)."""
        assert hand.public is not None
        return list(range(hand.next_position - hand.public.draws_this_turn, hand.next_position))

    def _scores_apart(self, hand: _Hand, play: Play) -> bool:
        """Whether `play` would score differently as a tile drawn in this turn (Threes for
        luck): only then does the play say which (a public fact the rules need)."""
        public = hand.public
        assert public is not None
        if public.draws_this_turn == 0:
            return False
        line = public.line
        return placement_points(self.rules, line, play, True) != placement_points(
            self.rules, line, play, False
        )

    def _proof_set(self, hand: _Hand, seat: int, play: Play, drawn: bool | None) -> list[int]:
        """The positions a play's proof ranges over: all the seat ever held, or, when the rules
        score a tile drawn in this turn apart, this turn's draws (`drawn`) or all the others;
        `drawn` is given exactly then."""
        if not self._scores_apart(hand, play):
            if drawn is not None:
                raise _bad("bad-play", "a play says drawn only when the rules score it apart")
            return hand.held[seat]
        if drawn is None:
            raise _bad("bad-play", "this play scores apart if drawn now: it must say drawn")
        now = self._drawn_now(hand)
        return now if drawn else [p for p in hand.held[seat] if p not in now]

    @staticmethod
    def _play_step(hand: _Hand) -> Step:
        """A v3 play's proof step: the number of tiles played before it in this hand."""
        return Step(StepKind.PLAY, len(hand.tiles_played))

    def _v_play3(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        seat = envelope.seat
        public = hand.public
        assert public is not None and hand.joint is not None
        index = envelope.field("tile")
        assert isinstance(index, int)
        tile = TILES[index]
        if tile in hand.tiles_played:
            raise _bad("already-played", f"{tile.text} was played before in this hand")
        play = public.check_play(seat, self._play_of(envelope, tile))
        drawn = envelope.field("drawn")
        assert drawn is None or isinstance(drawn, bool)
        positions = self._proof_set(hand, seat, play, drawn)
        if not own:  # a seat's own proof was made here a moment ago (as with shuffles)
            mental.check_tile(
                hand.ctx,
                seat,
                self._play_step(hand),
                index,
                self._bin(envelope, "proof"),
                hand.joint,
                self._branches(hand, seat, positions),
            )

        def apply() -> list[Event]:
            hand.tiles_played[tile] = seat
            return self._lay(hand, seat, play, drawn is True)

        return apply

    def _v_lead_claim3(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        seat, claim = envelope.seat, envelope.field("claim")
        tile = None
        if claim is not None:
            assert isinstance(claim, tuple) and hand.joint is not None
            index, proof = claim
            assert isinstance(index, int) and isinstance(proof, bytes)
            tile = TILES[index]
            if self._rank_of(hand, tile) >= hand.bound:
                raise IllegalAction(seat, f"claim {tile.text}", self._beat(hand))
            if not own:
                step = Step(StepKind.LEAD_CLAIM)
                branches = self._branches(hand, seat, hand.held[seat])
                mental.check_tile(hand.ctx, seat, step, index, proof, hand.joint, branches)

        def apply() -> list[Event]:
            hand.claim_indices.append(len(self.transcript) - 1)
            hand.claim_bounds.append(hand.bound)
            hand.claims.append(tile)
            if tile is not None:
                hand.bound = self._rank_of(hand, tile)
            if hand.bound == 0 or len(hand.claims) == self.players:
                return self._end_claims(hand)  # early stop: nothing beats the rank-0 tile
            return []

        return apply

    def _or_proof(self, hand: _Hand, step: Step, tile: Tile, positions: Sequence[int]) -> bytes:
        """This seat's proof that `tile` is at one of `positions` (it knows which)."""
        assert hand.keys is not None and self.seat is not None
        real = next(p for p in positions if hand.known.get(p) is tile)
        branches = self._branches(hand, self.seat, positions)
        return mental.prove_tile(hand.ctx, hand.keys, step, tile.index, branches, real, self._rng)

    def _play3_body(self, hand: _Hand, play: Play) -> tuple[Wire, ...]:
        assert self.seat is not None
        real = next(p for p in hand.held[self.seat] if hand.known.get(p) is play.tile)
        drawn = real in self._drawn_now(hand) if self._scores_apart(hand, play) else None
        positions = self._proof_set(hand, self.seat, play, drawn)
        proof = self._or_proof(hand, self._play_step(hand), play.tile, positions)
        return (hand.number, play.tile.index, proof, drawn, *self._place_body(play))

    def _v_draw(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        seat = envelope.seat
        assert hand.public is not None
        hand.public.check_draw(seat)

        def apply() -> list[Event]:
            assert hand.public is not None
            hand.forced_draw = hand.public.forced_due > 0
            hand.public.draw(seat)
            hand.action_indices.append(len(self.transcript) - 1)
            position = hand.next_position
            hand.next_position += 1
            hand.held[seat].append(position)
            hand.drawer = seat
            hand.draw_sharers = [s for s in range(self.players) if s != seat]
            self.phase = Phase.DRAW_SHARES
            return []

        return apply

    def _v_draw_share(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        share = DecryptionShare.from_bytes(self._bin(envelope, "share"), envelope.seat)
        position = hand.next_position - 1
        if share.position != position:
            raise _bad("bad-share", f"a share for position {share.position}, expected {position}")
        assert hand.joint is not None
        if not own:
            mental.check_share(hand.ctx, share, hand.joint, hand.deck)

        def apply() -> list[Event]:
            hand.shares.setdefault(position, []).append(share)
            hand.all_shares.append(share)
            hand.draw_sharers.pop(0)
            if hand.draw_sharers:
                return []
            drawer = hand.drawer
            assert drawer is not None
            hand.drawer = None
            self.phase = Phase.TURNS
            drawn = None
            if drawer == self.seat:
                (drawn,) = self._open_own(hand, [position])
                public = hand.public
                assert public is not None
                if must_play_drawn(public, drawn, hand.forced_draw):
                    hand.pending = drawn
            return [ActionTaken(drawer, DRAW, drawn)]

        return apply

    def _v_pass(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        seat = envelope.seat
        assert hand.public is not None
        hand.public.check_pass(seat)

        def apply() -> list[Event]:
            assert hand.public is not None
            hand.public.pass_turn(seat)
            hand.action_indices.append(len(self.transcript) - 1)
            if hand.public.over:
                self.phase = Phase.HAND_REVEAL
            return [ActionTaken(seat, PASS)]

        return apply

    def _v_skip(self, hand: _Hand, envelope: Envelope, own: bool) -> Callable[[], list[Event]]:
        seat = envelope.seat
        if self.version == FIRST_VERSION:
            raise _bad("unknown-type", "skip is not a message of protocol version 1")
        assert hand.public is not None
        hand.public.check_skip(seat)

        def apply() -> list[Event]:
            assert hand.public is not None
            hand.public.skip(seat)
            hand.action_indices.append(len(self.transcript) - 1)
            if hand.public.over:
                self.phase = Phase.HAND_REVEAL
            return [ActionTaken(seat, SKIP)]

        return apply

    def _v_hand_reveal(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        seat = envelope.seat
        raw = envelope.field("reveals")
        assert isinstance(raw, tuple)
        held = sorted(hand.held[seat])
        if self.version > SECOND_VERSION:
            checked = self._check_v3_reveals(hand, envelope, raw, held)
        else:
            if len(raw) != len(held):
                raise _bad("bad-reveal", f"reveals {len(raw)} tiles but holds {len(held)}")
            checked = [self._check_reveal(hand, envelope, data, held) for data in raw]
            if [r.position for r, _ in checked] != held:
                raise _bad("bad-reveal", "the revealed positions are not the positions it holds")

        def apply() -> list[Event]:
            hand.tile_reveals.extend(r for r, _ in checked)
            hand.revealed[seat] = tuple(t for _, t in checked)
            if len(hand.revealed) == self.players:
                self.phase = Phase.SECRET_REVEAL
            return []

        return apply

    def _check_v3_reveals(
        self, hand: _Hand, envelope: Envelope, raw: Sequence[Wire], held: Sequence[int]
    ) -> list[tuple[TileReveal, Tile]]:
        """v3: the seat shows every tile it has left, at distinct positions it held, none of
        them a tile played: as its positions hold distinct tiles, they are exactly the rest."""
        seat = envelope.seat
        played = sum(1 for s in hand.tiles_played.values() if s == seat)
        if len(raw) != len(held) - played:
            raise _bad("bad-reveal", f"reveals {len(raw)} tiles but holds {len(held) - played}")
        checked = [self._check_reveal(hand, envelope, data, held) for data in raw]
        positions = [r.position for r, _ in checked]
        if positions != sorted(set(positions)):
            raise _bad("bad-reveal", "the revealed positions repeat or are out of order")
        for _, tile in checked:
            if tile in hand.tiles_played:
                raise _bad("bad-reveal", f"reveals {tile.text}, which was played")
        return checked

    def _v_secret_reveal(
        self, hand: _Hand, envelope: Envelope, own: bool
    ) -> Callable[[], list[Event]]:
        reveal = SecretReveal.from_bytes(self._bin(envelope, "secret"), envelope.seat)
        assert hand.joint is not None
        mental.check_secret_reveal(reveal, hand.joint)

        def apply() -> list[Event]:
            hand.secrets.append(reveal)
            if len(hand.secrets) < self.players:
                return []
            return self._audit(hand)

        return apply

    _VALIDATORS: ClassVar[dict[int, _Validator]] = {
        msg.KEY_COMMIT.code: _v_key_commit,
        msg.KEY_REVEAL.code: _v_key_reveal,
        msg.SHUFFLE.code: _v_shuffle,
        msg.DEAL.code: _v_deal,
        msg.LEAD_CLAIM.code: _v_lead_claim,
        msg.PLAY.code: _v_play,
        msg.DRAW.code: _v_draw,
        msg.DRAW_SHARE.code: _v_draw_share,
        msg.PASS.code: _v_pass,
        msg.HAND_REVEAL.code: _v_hand_reveal,
        msg.SECRET_REVEAL.code: _v_secret_reveal,
        msg.SKIP.code: _v_skip,
        msg.PLAY3.code: _v_play3,
        msg.LEAD_CLAIM3.code: _v_lead_claim3,
    }

    @staticmethod
    def _bin(envelope: Envelope, name: str) -> bytes:
        value = envelope.field(name)
        assert isinstance(value, bytes)
        return value

    # -- the end-of-hand audit ----------------------------------------------------------------

    def _audit(self, hand: _Hand) -> list[Event]:
        """Decrypt everything, replay the hand on the full engine, score it, go on."""
        # Every proof, share and claim was verified as it arrived and every secret matches its
        # key, so decrypting the final deck with the secrets is all that is left to do.
        try:
            tiles_by_position = mental.decrypt_deck(hand.deck, hand.secrets)
        except RuntimeError as exc:  # unreachable once every proof checked out
            return self._audit_blame(0, f"the final deck does not decrypt: {exc}", "audit")
        tiles = [TILES[i] for i in tiles_by_position]
        size = hand.size
        hands = [tiles[s * size : (s + 1) * size] for s in range(self.players)]
        boneyard = tiles[self.players * size :]
        for position, tile in hand.known.items():
            if tiles[position] is not tile:  # cannot happen once every proof checked out
                return self._audit_blame(0, f"position {position} decrypts differently", "audit")
        lottery = self._lottery(hand)
        blamed = self._audit_claims(hand, hands)
        if blamed is not None:
            return blamed
        if hand.unopened:
            return self._void_hand(hand, hands, lottery)
        assert hand.public is not None
        try:
            state = self.match.start_hand(hands, boneyard, lottery)
        except InvalidRecord as exc:
            return self._audit_blame(0, f"the deal is not a set of 28 tiles: {exc}", "audit")
        if state is None or state.opener != hand.public.opener:
            # Unreachable once the claims passed: honest claims find the deal's own opener.
            return self._audit_blame(0, "the claims do not give the deal's opener", "audit")
        for number, (seat, action) in enumerate(hand.public.history):
            try:
                state.apply(seat, action)
            except IllegalAction as exc:
                reason = f"found at the audit: cannot {exc.action}: {exc.rule}"
                return self._audit_blame(seat, reason, "audit-rules", hand.action_indices[number])
        result = state.result
        if result is None:
            return self._audit_blame(
                hand.public.turn, "the hand did not end as claimed", "audit-rules"
            )
        before = tuple(self.match.scores)
        # The record's `hand` is the number the opening rule reads (counted hands + 1), so the
        # engine alone replays it; after a void hand it differs from the wire's hand number.
        opening_number = self.match.opening_number
        outcome = self.match.finish_hand(state)
        left = tuple(tuple(state.hand_of(s)) for s in range(self.players))
        record = record_of(state, before, opening_number)
        events: list[Event] = [
            HandEnded(hand.number, result, left, tuple(self.match.scores), record)
        ]
        return [*events, *self._next_hand(outcome)]

    def _next_hand(self, outcome: MatchOutcome) -> list[Event]:
        """The match ends (its goal, or the genesis's number of counted hands), or the next
        hand is dealt — also after a void hand, which counts nothing."""
        played = self.match.counted_hands
        done = self.max_hands is not None and played >= self.max_hands
        if outcome.over or done or self._hands_begun >= MAX_HANDS:
            self.phase = Phase.OVER
            return [MatchEnded(outcome, tuple(self.match.scores), played, self.max_hands)]
        return self._begin_hand()

    def _audit_claims(self, hand: _Hand, hands: Sequence[Sequence[Tile]]) -> list[Event] | None:
        """Each lead claim against the seat's true best (the blame, or None when all hold).

        v1: every seat revealed its best lead. v2: a revealed claim is the seat's best ranked
        tile; a nil claim hid nothing that beat the bound the seat saw.
        """
        for seat, claim in enumerate(hand.claims):
            index = hand.claim_indices[seat]
            if self.version == FIRST_VERSION:
                lead = highest_double_lead([hands[seat]])[1]
                if claim is not lead:
                    reason = f"its lead claim {_text(claim)} was not its best lead ({lead.text})"
                    return self._audit_blame(seat, reason, "audit-claim", index)
                continue
            best = best_of(hand.rank, hands[seat])
            if claim is not None and claim is not best:
                reason = f"its lead claim {claim.text} was not its best ({_text(best)})"
                return self._audit_blame(seat, reason, "audit-claim", index)
            bound = hand.claim_bounds[seat]
            if claim is None and best is not None and self._rank_of(hand, best) < bound:
                reason = f"claimed nothing, but held {best.text}, which beat the claims before"
                return self._audit_blame(seat, reason, "audit-claim", index)
        return None

    def _void_hand(self, hand: _Hand, hands: Sequence[Sequence[Tile]], lottery: int) -> list[Event]:
        """No seat could open (a redeal): the hand counts nothing; the next one is dealt."""
        found = (
            self.match.opening(hands, lottery)
            if hand.rank
            else self.match.unclaimed_opening(lottery)
        )
        if not found.void:  # honest claims always agree with the deal; keep the table safe
            return self._audit_blame(0, "the claims found no opener, but the deal has one", "audit")
        outcome = self.match.void_hand()
        dealt = tuple(tuple(tiles) for tiles in hands)
        return [HandRedealt(hand.number, dealt), *self._next_hand(outcome)]

    def _audit_blame(
        self, seat: int, reason: str, code: str, index: int | None = None
    ) -> list[Event]:
        """Name `seat`; `index` is the transcript index of the message the audit faults."""
        at = len(self.transcript) - 1 if index is None else index
        evidence = (self.transcript[at].encoded,)
        blame = Blame(seat, reason, code, evidence, index=at)
        self.blame = blame
        self.phase = Phase.HALTED
        return [CheatingDetected(blame)]

    # -- this peer's own messages ------------------------------------------------------------

    def _sign(self, mtype: MessageType, body: Sequence[Wire]) -> Envelope:
        assert self._identity is not None and self.seat is not None
        return self.transcript.sign_next(self._identity, self.seat, mtype, body)

    def _send_automatic(self, update: Update) -> None:
        """Sign and accept every message that is this peer's to send now (not game actions)."""
        while self.seat is not None:
            expected = self.expected
            if expected is None or expected[0] != self.seat or self.phase is Phase.TURNS:
                return
            envelope = self._automatic_message()
            if not self._accept(envelope, update, own=True):
                return
            update.outgoing.append(envelope.encode())
            self._drain_buffer(update)

    def _automatic_message(self) -> Envelope:
        phase, hand = self.phase, self.hand
        if phase is Phase.SETUP:
            assert self._identity is not None and self.seat is not None
            assert self._table_nonce is not None
            return sign_genesis(self.transcript, self._identity, self.seat, self._table_nonce)
        assert hand is not None and hand.keys is not None and self.seat is not None
        number, keys, rng = hand.number, hand.keys, self._rng
        if phase is Phase.COMMIT:
            return self._sign(msg.KEY_COMMIT, (number, keys.commit.to_bytes()))
        if phase is Phase.REVEAL:
            return self._sign(msg.KEY_REVEAL, (number, keys.reveal.to_bytes()))
        assert hand.joint is not None
        if phase is Phase.SHUFFLE:
            step = mental.shuffle_deck(hand.ctx, self.seat, hand.joint, hand.deck, rng)
            return self._sign(msg.SHUFFLE, (number, step.to_bytes()))
        if phase is Phase.DEAL:
            shares = tuple(
                mental.make_share(hand.ctx, keys, hand.deck, p, rng).to_bytes()
                for p in self._dealt_positions(hand, self.seat)
            )
            return self._sign(msg.DEAL, (number, shares))
        if phase is Phase.LEAD_CLAIM:
            mine = {hand.known[p]: p for p in hand.held[self.seat]}
            if self.version == FIRST_VERSION:
                best: Tile | None = highest_double_lead([list(mine)])[1]
            else:
                best = best_of(hand.rank, mine)
                if best is not None and self._rank_of(hand, best) >= hand.bound:
                    best = None  # nothing that beats the best claim so far: say nothing
            if self.version > SECOND_VERSION:
                claim = None
                if best is not None:
                    claim_step = Step(StepKind.LEAD_CLAIM)
                    proof = self._or_proof(hand, claim_step, best, hand.held[self.seat])
                    claim = (best.index, proof)
                return self._sign(msg.LEAD_CLAIM3, (number, claim))
            if best is None:
                return self._sign(msg.LEAD_CLAIM, (number, None))
            reveal = mental.reveal_tile(hand.ctx, keys, hand.deck, mine[best], best.index, rng)
            return self._sign(msg.LEAD_CLAIM, (number, reveal.to_bytes()))
        if phase is Phase.DRAW_SHARES:
            share = mental.make_share(hand.ctx, keys, hand.deck, hand.next_position - 1, rng)
            return self._sign(msg.DRAW_SHARE, (number, share.to_bytes()))
        if phase is Phase.HAND_REVEAL:
            reveals = tuple(
                mental.reveal_tile(
                    hand.ctx, keys, hand.deck, p, hand.known[p].index, rng
                ).to_bytes()
                for p in sorted(hand.held[self.seat])
                if hand.known[p] not in hand.tiles_played  # v3: held keeps played positions
            )
            return self._sign(msg.HAND_REVEAL, (number, reveals))
        assert phase is Phase.SECRET_REVEAL
        return self._sign(msg.SECRET_REVEAL, (number, mental.reveal_secret(keys).to_bytes()))

    def _play_body(self, hand: _Hand, play: Play) -> tuple[Wire, ...]:
        assert hand.keys is not None and self.seat is not None
        position = next(p for p in hand.held[self.seat] if hand.known[p] is play.tile)
        reveal = mental.reveal_tile(
            hand.ctx, hand.keys, hand.deck, position, play.tile.index, self._rng
        )
        return (hand.number, reveal.to_bytes(), *self._place_body(play))

    @staticmethod
    def _place_body(play: Play) -> tuple[Wire, ...]:
        """The place fields of a `play` or `play3` body (`at`, `side`, and `along` if true)."""
        at, side = encode_place(play.place)
        return (at, side, True) if play.along else (at, side)
