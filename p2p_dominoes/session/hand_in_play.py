"""What one hand at the table has established so far, public and (for this peer) private.

The session's validators read it to check the next message and change it once that message has
joined the transcript; nothing here checks anything or knows whose turn it is.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_dominoes.engine import PublicHand, Tile
from p2p_dominoes.mental import (
    Deck,
    DecryptionShare,
    HandContext,
    HandKeys,
    JointKey,
    KeyCommit,
    KeyReveal,
    SecretReveal,
    ShuffleStep,
    TileReveal,
)
from p2p_dominoes.session.identity import PublicIdentity
from p2p_dominoes.words import Phrase, phrase


@dataclass
class HandInPlay:
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
    gone: int | None = None
    """v4: the seat a goodbye named; the hand is void (§16)."""
    continuation: bytes | None = None
    """v4: the message hash of the continue proposed after the goodbye."""
    continue_signed: int = 0
    """v4: how many of the other seats have signed the continuation so far."""
    returning: tuple[str, PublicIdentity] | None = None
    """v4 (§16.1): the name and fresh key a come_back asked seat `gone` back under; the hand
    is set aside (nothing of it was dealt) and the continuation must give the seat to them."""

    @property
    def continue_signers(self) -> tuple[int, ...]:
        """v4: the seats that sign the continuation, in seat order: all but the proposer (the
        leaver's seat signs with its new holder's key)."""
        return tuple(s for s in range(len(self.held)) if s != self.proposer)

    @property
    def proposer(self) -> int:
        """v4: the lowest seat that is not gone: it proposes the continuation."""
        return next(s for s in range(len(self.held)) if s != self.gone)

    @property
    def next_continue_signer(self) -> int:
        """v4: the seat whose continue_sign comes next."""
        return self.continue_signers[self.continue_signed]

    @property
    def deck(self) -> Deck:
        """The deck as the last shuffle left it (the one every share and reveal is about)."""
        return self.decks[-1]

    def shares_for(self, position: int) -> list[DecryptionShare]:
        """The decryption shares of `position` received so far."""
        return self.shares.get(position, [])

    def rank_of(self, tile: Tile) -> int:
        """Where `tile` stands in the hand's rank list (len(rank) when it is not ranked)."""
        return next((i for i, t in enumerate(self.rank) if t is tile), len(self.rank))

    def beat(self) -> Phrase:
        """Why a claim that does not beat the bound is refused."""
        if self.bound >= len(self.rank):
            return phrase("session.why.claim_must_open")
        return phrase("session.why.claim_must_beat", tile=self.rank[self.bound].text)
