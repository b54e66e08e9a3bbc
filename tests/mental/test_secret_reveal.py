"""Secret reveals: the secret must match the seat's key share."""

import pytest

from p2p_dominoes.mental.errors import InvalidMessageError
from p2p_dominoes.mental.group import L, Scalar
from p2p_dominoes.mental.secret_reveal import SecretReveal, check_secret_reveal, reveal_secret
from tests.mental.conftest import build_hand


def test_secret_reveal() -> None:
    hand = build_hand(2)
    reveal = reveal_secret(hand.keys[1])
    check_secret_reveal(reveal, hand.joint)
    assert SecretReveal.from_bytes(reveal.to_bytes(), 1) == reveal
    assert str(hand.keys[1].secret.value) not in repr(reveal)
    for wrong in (SecretReveal(1, hand.keys[0].secret), SecretReveal(1, Scalar(0))):
        with pytest.raises(InvalidMessageError) as info:
            check_secret_reveal(wrong, hand.joint)
        assert info.value.seat == 1
    with pytest.raises(InvalidMessageError):
        SecretReveal.from_bytes(reveal.to_bytes()[:2] + L.to_bytes(32, "little"), 1)
