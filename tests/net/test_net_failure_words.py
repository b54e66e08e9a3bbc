"""The network's failure reasons are phrases (words/phrases.py): real failures keep the English
text they always had, and `reason_in(error, "ru")` reads them in Russian, an inner reason
included. No sockets: the handshake runs over an in-memory stream."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]
import pytest
import trio
import trio.testing

from p2p_dominoes.net import ConnectionClosed, FrameError, HandshakeError
from p2p_dominoes.net.framing import Bye, decode_message, encode_message
from p2p_dominoes.net.handover import Handover
from p2p_dominoes.net.handshake import handshake
from p2p_dominoes.net.lobby import LobbyError, decode_lobby
from p2p_dominoes.net.lobby_lines import closed_line
from p2p_dominoes.session import Identity
from p2p_dominoes.words import phrase, reason_in


def test_a_malformed_frame_is_named_in_english_and_in_russian() -> None:
    with pytest.raises(FrameError) as caught:
        decode_message(msgpack.packb([99]))
    assert str(caught.value) == "unknown message kind 99"
    assert reason_in(caught.value, "ru") == "неизвестный вид сообщения 99"
    with pytest.raises(FrameError) as caught:
        decode_message(b"\xc1")
    assert str(caught.value) == "message is not valid msgpack (FormatError)"
    assert reason_in(caught.value, "ru") == "сообщение не является правильным msgpack (FormatError)"


async def test_a_bad_handshake_says_why_with_the_frames_fault_inside() -> None:
    ours, theirs = trio.testing.memory_stream_pair()
    await theirs.send_all((100_000).to_bytes(4, "big"))
    with pytest.raises(HandshakeError) as caught:
        await handshake(
            ours, Identity.generate(), initiator=False, expect=None, authorize=None, timeout=5
        )
    assert str(caught.value) == "malformed handshake: frame length 100000 is outside 1..512"
    assert reason_in(caught.value, "ru") == (
        "искажённое рукопожатие: длина кадра 100000 вне пределов 1..512"
    )


def test_a_lobby_message_that_is_not_one_is_refused_in_both_languages() -> None:
    with pytest.raises(LobbyError) as caught:
        decode_lobby(msgpack.packb(["nope", 1]))
    assert str(caught.value) == "malformed lobby message 'nope'"
    assert reason_in(caught.value, "ru") == "искажённое сообщение лобби 'nope'"
    with pytest.raises(LobbyError) as caught:  # the engine's reason inside ours, read alike
        decode_lobby(msgpack.packb(["seats", "T", [], 2, [], None]))
    assert str(caught.value) == (
        "seats: the table's rules cannot be played: rules: missing field 'name'"
    )
    assert reason_in(caught.value, "ru") == (
        "seats: по правилам стола играть нельзя: правила: нет поля 'name'"
    )
    with pytest.raises(LobbyError) as caught:
        decode_lobby(msgpack.packb([1, 2]))
    assert str(caught.value) == "a lobby message is an array starting with its kind"
    assert reason_in(caught.value, "ru") == "сообщение лобби — массив, начинающийся с его вида"


def test_a_handover_that_is_not_one_is_said_in_russian_too() -> None:
    with pytest.raises(ValueError) as caught:
        Handover.decode(msgpack.packb([0, [], []]).hex())
    assert str(caught.value) == "a handover's transcript holds no genesis"
    assert reason_in(caught.value, "ru") == "в записи передачи места нет начальной записи"


def test_a_closed_connection_keeps_our_words_and_a_bye_stays_english_on_the_wire() -> None:
    violation = phrase(
        "net.why.protocol_violation", error=FrameError(phrase("net.why.frame_forged"))
    )
    closed = ConnectionClosed(violation, peer_fault=True)
    assert (
        str(closed)
        == "protocol violation: frame failed authentication (forged, reordered, replayed)"
    )
    assert reason_in(closed, "ru") == (
        "нарушение протокола: кадр не прошёл проверку подлинности "
        "(подделан, переставлен или повторён)"
    )
    # A joiner's line when the host went silent reads our words in its language.
    silent = ConnectionClosed(phrase("net.why.peer_silent", seconds="5"))
    assert (
        closed_line(silent.args[0], "Ann's peer", "ru")
        == "хозяин закрыл соединение: нет ответа 5 с"
    )
    assert closed_line(silent.args[0], "Ann's peer", "en") == (
        "the host closed the connection: peer silent for 5 s"
    )
    # What we send a peer is our English text, byte for byte.
    bye = Bye.of(phrase("net.why.closed_locally", reason=phrase("net.why.closed")))
    assert type(bye.reason) is str
    assert encode_message(bye) == encode_message(Bye("closed locally: closed"))
