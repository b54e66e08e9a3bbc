"""End of hand: every seat reveals its per-hand secret x_i, after which anyone can decrypt."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_dominoes.mental.context import Step, StepKind
from p2p_dominoes.mental.encoding import Reader, u8
from p2p_dominoes.mental.errors import GroupError, InvalidMessageError
from p2p_dominoes.mental.group import Scalar, mul_base
from p2p_dominoes.mental.keys import HandKeys, JointKey
from p2p_dominoes.mental.messages import MessageTag, decode
from p2p_dominoes.words import phrase

_STEP = Step(StepKind.SECRET_REVEAL)


@dataclass(frozen=True)
class SecretReveal:
    """Seat `seat`'s per-hand ElGamal secret, published once the hand is over."""

    seat: int
    secret: Scalar = field(repr=False)

    def to_bytes(self) -> bytes:
        """`tag ‖ u8(seat) ‖ x[32]`."""
        return u8(MessageTag.SECRET_REVEAL) + u8(self.seat) + self.secret.to_bytes()

    @classmethod
    def from_bytes(cls, data: bytes, sender: int) -> SecretReveal:
        """Decode a message sent by `sender`; InvalidMessageError if malformed."""

        def parse(r: Reader) -> SecretReveal:
            return cls(sender, r.scalar())

        return decode(data, sender, MessageTag.SECRET_REVEAL, _STEP.said, parse)


def reveal_secret(keys: HandKeys) -> SecretReveal:
    """The end-of-hand message giving away this seat's per-hand secret."""
    return SecretReveal(keys.seat, keys.secret)


def check_secret_reveal(reveal: SecretReveal, joint: JointKey) -> None:
    """Raise InvalidMessageError unless `x_seat·G` is the seat's published key share."""
    if not 0 <= reveal.seat < len(joint.seat_keys):
        raise InvalidMessageError(reveal.seat, _STEP.said, phrase("mental.why.not_seat_hand"))
    try:
        matches = mul_base(reveal.secret.value) == joint.seat_keys[reveal.seat].raw
    except GroupError:
        matches = False
    if not matches:
        raise InvalidMessageError(
            reveal.seat, _STEP.said, phrase("mental.why.secret_does_not_match_key")
        )
