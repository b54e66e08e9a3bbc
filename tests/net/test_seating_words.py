"""A joiner refuses a host's genesis it cannot sign in its player's language; a lower layer's
reason in that refusal (a Phrase) is read in the same language (net/seating.py)."""

from __future__ import annotations

import pytest

from p2p_dominoes.net import seating
from p2p_dominoes.net.lobby import GenesisOffer
from p2p_dominoes.net.peer_options import PeerFailure
from p2p_dominoes.session import Identity, InvalidMessage
from p2p_dominoes.words import phrase

REFUSED = phrase("engine.cannot", seat=0, action="draw", rule="x")
SAID = {
    "en": "the host sent an invalid genesis: seat 0 cannot draw: x",
    "ru": "хозяин стола прислал неверное начальное сообщение: место 0 не может draw: x",
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_an_invalid_genesis_is_refused_with_its_reason_in_the_language(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(_: bytes) -> None:
        raise InvalidMessage("bad", REFUSED)

    monkeypatch.setattr(seating, "_decode_envelope", refuse)
    me, host = Identity.generate(), Identity.generate()
    with pytest.raises(PeerFailure) as refused:
        seating.accept_genesis(GenesisOffer(b"x"), me, host.public, b"n" * 32, lang)
    assert str(refused.value) == SAID[lang]


def test_without_a_language_the_refusal_is_english_as_before() -> None:
    me, host = Identity.generate(), Identity.generate()
    with pytest.raises(PeerFailure) as refused:
        seating.accept_genesis(GenesisOffer(b"not an envelope"), me, host.public, b"n" * 32)
    assert str(refused.value).startswith("the host sent an invalid genesis: ")
