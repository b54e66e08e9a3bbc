"""Text from peers is shown without terminal escapes, bidi overrides or invisible characters."""

from hypothesis import given
from hypothesis import strategies as st

from p2p_dominoes.peer_text import FORBIDDEN_RANGES, forbidden_code_point, peer_text


def test_escape_sequences_lose_their_escape_byte() -> None:
    title = "\x1b]0;pwned\x07Bob"
    clear = "\x1b[2J\x1b[HAnn"
    assert peer_text(title) == "]0;pwnedBob"
    assert peer_text(clear) == "[2J[HAnn"
    assert "\x1b" not in peer_text("\x9b31mred")  # a one-byte CSI (C1) too


def test_bidi_overrides_and_zero_width_characters_are_dropped() -> None:
    assert peer_text("abc\u202edcba") == "abcdcba"
    assert peer_text("A\u2066B\u2069C\u200bD\ufeff") == "ABCD"


def test_ordinary_text_in_both_languages_is_unchanged() -> None:
    for text in ("Ann's table", "Стол Пети — «козёл»", "Zoë 🂡"):
        assert peer_text(text) == text
        assert forbidden_code_point(text) is None


def test_long_text_is_cut_with_an_ellipsis_and_non_text_is_empty() -> None:
    assert peer_text("x" * 300, 10) == "x" * 9 + "…"
    assert peer_text(b"bytes") == ""
    assert peer_text(None) == ""


def test_forbidden_code_point_names_the_first_offender() -> None:
    assert forbidden_code_point("ok\x1bno") == 0x1B
    assert forbidden_code_point("\ud800") == 0xD800


@given(st.text(max_size=200))
def test_nothing_forbidden_survives_cleaning(text: str) -> None:
    cleaned = peer_text(text, 500)
    assert forbidden_code_point(cleaned) is None
    assert all(not low <= ord(c) <= high for c in cleaned for low, high in FORBIDDEN_RANGES)


def test_a_peers_words_are_quoted_so_they_cannot_pass_for_ours() -> None:
    from p2p_dominoes.peer_text import plain_quotes, quoted

    assert quoted("done") == "“done”"
    shown = quoted("x” Connected. Fingerprint OK \u2714\x1b[2J")
    assert shown == '“x" Connected. Fingerprint OK \u2714[2J”'  # its quote cannot close ours
    assert plain_quotes("«a» „b“") == '"a" "b"'
    assert shown.count("“") == 1 and shown.count("”") == 1


def test_our_own_phrase_is_cleaned_as_its_text_not_dropped() -> None:
    from p2p_dominoes.words import phrase

    said = phrase("net.not_this_seat")
    assert peer_text(said) == "this identity does not hold the seat this log was kept for"
    assert type(peer_text(said)) is str
