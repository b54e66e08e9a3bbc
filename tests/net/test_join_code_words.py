"""Why typed text is not a join code, in the player's language (the catalogues' `join_code.*`):
the English stays the exception's message, the Russian is one call away."""

from __future__ import annotations

import pytest

from p2p_dominoes.net.join_code import JoinCodeError, parse_join_code


@pytest.mark.parametrize(
    ("text", "english", "russian"),
    [
        (
            "apple",
            "a join code is 3 words (or 3 numbers), not 1",
            "код для входа — это 3 слова (или 3 числа), а не 1",
        ),
        ("1 2 256", "256 is not a word's number (0–255)", "256 — не номер слова (0–255)"),
        (
            "1 2 zzzzqq",
            "'zzzzqq' is not a word of the join code's list",
            "'zzzzqq' — не слово из списка кода для входа",
        ),
        ("1 2 ab3", "a join code is words or numbers", "код для входа — это слова или числа"),
    ],
)
def test_why_a_code_is_refused_in_both_languages(text: str, english: str, russian: str) -> None:
    with pytest.raises(JoinCodeError) as refused:
        parse_join_code(text)
    assert str(refused.value) == english
    assert refused.value.said("en") == english
    assert refused.value.said("ru") == russian


def test_the_count_of_words_takes_the_russian_plural() -> None:
    for count, words in (
        (1, "1 слово (или 1 число)"),
        (2, "2 слова (или 2 числа)"),
        (5, "5 слов (или 5 чисел)"),
    ):
        error = JoinCodeError("join_code.count", count, given=0)
        assert error.said("ru") == f"код для входа — это {words}, а не 0"
    assert str(JoinCodeError("join_code.count", 1, given=2)) == (
        "a join code is 1 word (or 1 number), not 2"
    )
