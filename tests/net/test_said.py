"""The runtime's lines come in the player's language; English is the default."""

import re
import socket
from string import Formatter

import pytest

from p2p_dominoes.net import PeerFailure, dialed
from p2p_dominoes.net.said import _LINES, said, said_closed, said_os_errors
from p2p_dominoes.session import Identity


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def test_every_line_has_both_languages_with_the_same_fields() -> None:
    for key, (english, russian) in _LINES.items():
        assert _fields(english) == _fields(russian), key
        fields = {name: f"<{name}>" for name in _fields(english)}
        assert said(key, "en", **fields) == english.format(**fields)
        assert said(key, "ru", **fields) == russian.format(**fields)
        assert said(key, "de", **fields) == english.format(**fields)
        assert english != russian


def test_a_lost_connection_in_russian() -> None:
    assert said("lost", "ru", name="Bob") == "Пропала связь с Bob."
    assert said("lost", "en", name="Bob") == "Lost the connection to Bob."


async def test_a_dial_that_gives_up_says_why_in_russian() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        free = sock.getsockname()[1]
    identity = Identity.generate()
    with pytest.raises(PeerFailure) as failed:
        async with dialed(identity, ["127.0.0.1"], free, None, patience=0.3, lang="ru"):
            pass
    line = str(failed.value)
    assert line.startswith(f"не удалось соединиться с 127.0.0.1:{free} за "), line
    assert "(соединение отклонено)" in line, line
    assert re.search(r"[A-Za-z]{2,}", line) is None, line  # no English word left


def test_the_system_words_of_a_failed_dial_in_russian() -> None:
    text = "127.0.0.1: connection refused; ::1: timed out after 5 s"
    assert said_os_errors(text, "en") == text
    assert said_os_errors(text, "ru") == "127.0.0.1: соединение отклонено; ::1: нет ответа за 5 с"


def test_why_the_host_closed_the_connection_in_russian() -> None:
    assert said_closed("peer said bye: “done”", "ru") == "стол закрыт"
    assert said_closed("peer silent for 5 s", "ru") == "нет ответа 5 с"
    assert said_closed("peer said bye: “done”", "en") == "peer said bye: “done”"
    assert said_closed("protocol violation: x", "ru") == "protocol violation: x"  # not known
