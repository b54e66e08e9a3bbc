"""v4 (§16): the bot that takes a seat someone left refuses a handover it cannot use, and says
why in its player's language (its two refusals are catalogue lines, `net.handover_bad` and
`net.cannot_take_seat`), before it opens any socket."""

from __future__ import annotations

import pytest
import trio

from p2p_dominoes.net import take_seat
from p2p_dominoes.net.handover import Handover
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions
from p2p_dominoes.net.take_seat import replayed, take_seat_table
from p2p_dominoes.session import Identity, InvalidMessage
from p2p_dominoes.words import phrase
from tests.net.joiner_ui import TableLinesUI
from tests.session.tables import in_hand_two, three_seats


def _messages() -> tuple[bytes, ...]:
    """A three-seat table's transcript in hand 2, nobody gone (genesis first)."""
    table, _ = three_seats(seed=3)
    table.run(until=in_hand_two)
    return tuple(entry.encoded for entry in table.sessions[0].transcript.entries)


WORDS = {
    "en": ("the handed-over transcript does not replay: ", "cannot take seat 3: "),
    "ru": ("переданная запись стола не воспроизводится: ", "не удаётся занять место 3: "),
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_transcript_that_does_not_replay_is_refused_in_the_players_language(
    lang: str,
) -> None:
    messages = _messages()
    skipped = (messages[0], *messages[2:])  # a seat's genesis signature left out
    with pytest.raises(PeerFailure) as refused:
        replayed(skipped, lang)
    said = str(refused.value)
    assert said.startswith(WORDS[lang][0]) and len(said) > len(WORDS[lang][0]), said


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_seat_the_bot_was_not_given_is_refused_in_the_players_language(lang: str) -> None:
    """Nobody left: seat 3 still has its own key, not the bot's."""
    options = PeerOptions(name="cat (bot)", identity=Identity.generate(), ui=TableLinesUI(lang))
    handover = Handover(2, _messages(), ((0, "127.0.0.1", 1), (1, "127.0.0.1", 2)))
    with pytest.raises(PeerFailure) as refused:
        trio.run(take_seat_table, options, handover)
    said = str(refused.value)
    assert said.startswith(WORDS[lang][1]) and len(said) > len(WORDS[lang][1]), said


REFUSED = phrase("engine.cannot", seat=2, action="draw", rule="x")
"""A lower layer's reason (a Phrase): the refusal reads it in the player's language."""
REFUSED_IN = {"en": "seat 2 cannot draw: x", "ru": "место 2 не может draw: x"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_phrase_reason_of_a_replay_is_said_in_the_players_language(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object) -> None:
        raise InvalidMessage("bad", REFUSED)

    monkeypatch.setattr(take_seat, "Transcript", refuse)
    with pytest.raises(PeerFailure) as refused:
        replayed(_messages(), lang)
    assert str(refused.value) == WORDS[lang][0] + REFUSED_IN[lang]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_phrase_reason_of_a_seat_refused_is_said_in_the_players_language(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Refusing:
        def take_seat(self, *_: object) -> None:
            raise ValueError(REFUSED)

    monkeypatch.setattr(take_seat, "replayed", lambda *_: Refusing())
    options = PeerOptions(name="cat (bot)", identity=Identity.generate(), ui=TableLinesUI(lang))
    handover = Handover(2, _messages(), ((0, "127.0.0.1", 1), (1, "127.0.0.1", 2)))
    with pytest.raises(PeerFailure) as refused:
        trio.run(take_seat_table, options, handover)
    assert str(refused.value) == WORDS[lang][1] + REFUSED_IN[lang]
