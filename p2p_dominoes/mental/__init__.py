"""The mental-poker cryptography: pure functions, no I/O.

Peers with no trusted dealer shuffle and deal the 28 tiles on edwards25519 (EC-ElGamal under a
joint per-hand key, Terelius–Wikström shuffle proofs, Chaum–Pedersen decryption shares). The
normative description is `protocol/MENTAL_POKER.md`. The seeded `DeterministicRandom` used by
the test vectors is deliberately not re-exported: import it from `.randomness` in tests only.
"""

from p2p_dominoes.mental.audit import AuditReport, HandRecord, audit, decrypt_deck
from p2p_dominoes.mental.chaum_pedersen import ChaumPedersenProof
from p2p_dominoes.mental.context import (
    PROTOCOL_VERSION,
    HandContext,
    ProofBinding,
    Step,
    StepKind,
)
from p2p_dominoes.mental.elgamal import Ciphertext, Deck
from p2p_dominoes.mental.errors import (
    EncodingError,
    GroupError,
    InvalidMessageError,
    MentalError,
    ProofError,
)
from p2p_dominoes.mental.generators import generators
from p2p_dominoes.mental.group import G, L, Point, Scalar
from p2p_dominoes.mental.keys import (
    HandKeys,
    JointKey,
    KeyCommit,
    KeyReveal,
    check_key_reveal,
    combine_keys,
    new_hand_keys,
)
from p2p_dominoes.mental.or_proof import (
    Branch,
    OrProof,
    branches_for,
    check_tile,
    partial_opening,
    prove_tile,
)
from p2p_dominoes.mental.randomness import (
    SYSTEM_RANDOM,
    RandomSource,
    SystemRandom,
)
from p2p_dominoes.mental.schnorr import SchnorrProof
from p2p_dominoes.mental.secret_reveal import SecretReveal, check_secret_reveal, reveal_secret
from p2p_dominoes.mental.shares import DecryptionShare, check_share, make_share, open_position
from p2p_dominoes.mental.shuffle import (
    DECK_SIZE,
    ShuffleStep,
    check_shuffle,
    check_shuffles,
    shuffle_deck,
    starting_deck,
)
from p2p_dominoes.mental.shuffle_proof import ShuffleProof
from p2p_dominoes.mental.tile_reveal import TileReveal, check_tile_reveal, reveal_tile
from p2p_dominoes.mental.tiles import (
    TILE_COUNT,
    TILES,
    parse_tile,
    point_to_tile,
    tile_point,
    tile_text,
)
from p2p_dominoes.mental.transcript import Transcript

__all__ = [
    "DECK_SIZE",
    "PROTOCOL_VERSION",
    "SYSTEM_RANDOM",
    "TILES",
    "TILE_COUNT",
    "AuditReport",
    "Branch",
    "ChaumPedersenProof",
    "Ciphertext",
    "Deck",
    "DecryptionShare",
    "EncodingError",
    "G",
    "GroupError",
    "HandContext",
    "HandKeys",
    "HandRecord",
    "InvalidMessageError",
    "JointKey",
    "KeyCommit",
    "KeyReveal",
    "L",
    "MentalError",
    "OrProof",
    "Point",
    "ProofBinding",
    "ProofError",
    "RandomSource",
    "Scalar",
    "SchnorrProof",
    "SecretReveal",
    "ShuffleProof",
    "ShuffleStep",
    "Step",
    "StepKind",
    "SystemRandom",
    "TileReveal",
    "Transcript",
    "audit",
    "branches_for",
    "check_key_reveal",
    "check_secret_reveal",
    "check_share",
    "check_shuffle",
    "check_shuffles",
    "check_tile",
    "check_tile_reveal",
    "combine_keys",
    "decrypt_deck",
    "generators",
    "make_share",
    "new_hand_keys",
    "open_position",
    "parse_tile",
    "partial_opening",
    "point_to_tile",
    "prove_tile",
    "reveal_secret",
    "reveal_tile",
    "shuffle_deck",
    "starting_deck",
    "tile_point",
    "tile_text",
]
