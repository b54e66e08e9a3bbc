"""The runtime's lines come in the player's language; English is the default."""

from string import Formatter

from p2p_dominoes.net.said import _LINES, said


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
