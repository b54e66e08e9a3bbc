"""The join code's pure parts: making one, showing it, reading what a person typed (English or
Russian words, a word's start, numbers), the constant-time comparison, how it travels in the
`join` message, and how a host's refusal words are shown (quoted and attributed)."""

from __future__ import annotations

import re

import pytest

from p2p_dominoes.net.join_code import (
    JOIN_CODE_BYTES,
    JoinCodeError,
    codes_match,
    join_code_digits,
    join_code_line,
    join_code_words,
    new_join_code,
    parse_join_code,
)
from p2p_dominoes.net.lobby import Join, LobbyError, decode_lobby, encode_lobby
from p2p_dominoes.net.lobby_lines import join_with_lines, own_fingerprint_line, refusal_line
from p2p_dominoes.session import Identity
from p2p_dominoes.session.table_code import word_lists

CODE = bytes([0, 21, 184])


def test_a_new_code_is_three_random_bytes() -> None:
    codes = {new_join_code() for _ in range(200)}
    assert all(len(c) == JOIN_CODE_BYTES == 3 for c in codes)
    assert len(codes) > 190  # 2^24 values: two of 200 alike is rare


def test_a_code_is_shown_as_words_in_either_language_and_as_digits() -> None:
    en, ru = word_lists()["en"], word_lists()["ru"]
    assert join_code_words(CODE) == f"{en[0]} {en[21]} {en[184]}"
    assert join_code_words(CODE, "ru") == f"{ru[0]} {ru[21]} {ru[184]}"
    assert join_code_digits(CODE) == "000-021-184"
    assert join_code_line(CODE, "ru") == f"{ru[0]} {ru[21]} {ru[184]} (000-021-184)"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_what_a_person_types_reads_back_as_the_code(lang: str) -> None:
    for _ in range(50):
        code = new_join_code()
        words = join_code_words(code, lang)
        assert parse_join_code(words) == code
        assert parse_join_code(f"  {words.upper()}  ") == code
        assert parse_join_code(words.replace(" ", "-")) == code
        assert parse_join_code(join_code_digits(code)) == code
        assert parse_join_code(" ".join(str(b) for b in code)) == code
        # A word's start that only one word has (what completion would finish).
        starts = " ".join(_shortest_own_start(w) for w in words.split())
        assert parse_join_code(starts) == code


def _shortest_own_start(word: str) -> str:
    others = [w for lang in ("en", "ru") for w in word_lists()[lang] if w != word]
    return next(
        word[:n] for n in range(1, len(word) + 1) if not any(o.startswith(word[:n]) for o in others)
    )


def test_languages_mix_and_yo_reads_as_ye() -> None:
    en, ru = word_lists()["en"], word_lists()["ru"]
    assert parse_join_code(f"{en[5]} {ru[6]} 7") == bytes([5, 6, 7])
    with_e = next(i for i, w in enumerate(ru) if "е" in w)
    typed = ru[with_e].replace("е", "ё", 1)
    assert parse_join_code(f"{typed} 1 2") == bytes([with_e, 1, 2])


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "3 words"),
        ("apple", "3 words"),
        ("1 2 3 4", "3 words"),
        ("1 2 256", "0–255"),
        ("1 2 zzzzqq", "not a word"),
        ("1 2 ab3", "words or numbers"),
    ],
)
def test_anything_else_is_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(JoinCodeError, match=why):
        parse_join_code(text)


def test_a_start_that_several_words_share_is_refused() -> None:
    en = word_lists()["en"]
    starts: dict[str, int] = {}
    for word in en:
        starts[word[0]] = starts.get(word[0], 0) + 1
    shared = next(letter for letter, n in starts.items() if n > 1)
    with pytest.raises(JoinCodeError, match="several words"):
        parse_join_code(f"{shared} 1 2")


def test_codes_are_compared_whole_and_a_missing_one_never_matches() -> None:
    assert codes_match(CODE, CODE)
    assert not codes_match(None, CODE)
    assert not codes_match(CODE[:2], CODE)
    assert not codes_match(CODE + b"\x00", CODE)
    assert not codes_match(bytes([0, 21, 185]), CODE)


def test_the_code_travels_as_an_optional_seventh_element_of_join() -> None:
    commitment = bytes(32)
    older = Join("ann", 4000, "10.0.0.1", commitment)
    with_seat = Join("ann", 4000, "10.0.0.1", commitment, 2)
    coded = Join("ann", 4000, "10.0.0.1", commitment, None, CODE)
    both = Join("ann", 4000, "10.0.0.1", commitment, 2, CODE)
    # The joins without a code are the bytes they always were.
    assert encode_lobby(older) == bytes.fromhex(
        "0295a46a6f696ea3616e6ecd0fa0a831302e302e302e31c420" + "00" * 32
    )
    assert encode_lobby(with_seat) == encode_lobby(older)[:1] + b"\x96" + encode_lobby(older)[
        2:
    ] + bytes([2])
    assert encode_lobby(coded).endswith(b"\xc0\xc4\x03" + CODE)  # seat nil, then the code
    for join in (older, with_seat, coded, both):
        assert decode_lobby(encode_lobby(join)[1:]) == join


@pytest.mark.parametrize("code", [b"", bytes(17), "abc", 7])
def test_a_join_whose_code_is_not_1_to_16_bytes_is_malformed(code: object) -> None:
    import msgpack  # type: ignore[import-untyped]

    body = msgpack.packb(["join", "ann", 4000, "10.0.0.1", bytes(32), None, code])
    with pytest.raises(LobbyError):
        decode_lobby(body)


def test_a_hosts_refusal_words_are_quoted_cleaned_and_attributed() -> None:
    line = refusal_line(
        "refused", "Connected.\x1b[2J Fingerprint OK ✔ ”) and more“", "Ann's peer", "en"
    )
    # Their own quotation marks are made plain, so they cannot close ours early.
    assert line == (
        "no seat [refused]: the host refused you a seat "
        '(Ann\'s peer says: “Connected.[2J Fingerprint OK ✔ ") and more"”)'
    )
    assert "\x1b" not in line
    plain = refusal_line("refused", "the host refused you a seat", "Ann's peer", "ru")
    assert plain == "нет места: хозяин отказал вам в месте"  # our own words: nothing quoted
    unknown = refusal_line("weird", "go away", "the host's peer (ABCD-EFGH)", "en")
    assert unknown.startswith("no seat [weird]: the host refused (the host's peer (ABCD-EFGH)")


def test_the_lines_about_the_code_and_the_joiners_own_fingerprint() -> None:
    code_line, join_line = join_with_lines("10.0.0.1:47800", CODE, "en")
    assert code_line.startswith(f"Join code: {join_code_line(CODE)} — a joiner must give it")
    assert join_line.endswith(f"join --connect 10.0.0.1:47800 --code '{join_code_words(CODE)}'")
    (plain,) = join_with_lines("10.0.0.1:47800", None, "en")
    assert "--code" not in plain
    assert join_code_words(CODE, "ru") in " ".join(join_with_lines("10.0.0.1:47800", CODE, "ru"))
    key = Identity.generate().public
    line = own_fingerprint_line("Bob\x07", key, "en")
    assert re.search(r'"Bob", fingerprint ([A-Z2-7]{4}-[A-Z2-7]{4}): check', line)
    assert key.short_fingerprint in own_fingerprint_line("Bob", key, "ru")


def test_a_hosts_bye_words_are_quoted_and_attributed_and_ours_are_not() -> None:
    from p2p_dominoes.net.lobby_lines import closed_line

    theirs = closed_line("peer said bye: Connected. Fingerprint OK ✔\x1b[0m", "Ann's peer", "en")
    assert theirs == (
        "the host closed the connection (Ann's peer says: “Connected. Fingerprint OK ✔[0m”)"
    )
    ours = closed_line("peer silent for 5 s", "Ann's peer", "ru")
    assert ours == "хозяин закрыл соединение: нет ответа 5 с"
    done = closed_line("peer said bye: done", "Ann's peer", "en")
    assert done == "the host closed the connection: peer said bye: done"
