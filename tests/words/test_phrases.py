"""A lower layer's reason as a `Phrase`: the English text it always was, read again in a
player's language where it is shown."""

from __future__ import annotations

import copy
import pickle

from p2p_dominoes.engine import IllegalAction
from p2p_dominoes.words import Phrase, phrase, phrase_count, reason_in


def test_a_phrase_is_its_english_text_and_reads_in_russian() -> None:
    said = phrase("net.not_allowed", rule="x")
    assert said == "That move is not allowed: x"
    assert type(str(said)) is str and str(said) == said
    assert said.in_("en") == said
    assert said.in_("ru") == "Так ходить нельзя: x"
    assert said.in_("de") == said  # any other language reads English


def test_a_phrase_among_the_values_reads_in_the_same_language() -> None:
    inner = phrase("net.not_allowed", rule="x")
    outer = phrase("engine.cannot", seat=1, action="draw", rule=inner)
    assert outer == "seat 1 cannot draw: That move is not allowed: x"
    assert outer.in_("ru") == "место 1 не может draw: Так ходить нельзя: x"


def test_a_counted_phrase_takes_the_russian_form_for_its_number() -> None:
    for count, form in ((1, "1 сдача "), (2, "2 сдачи "), (5, "5 сдач ")):
        said = phrase_count("verify.hands_audited", count)
        assert form in said.in_("ru"), said.in_("ru")
        assert said.in_("en").startswith(str(count))


def test_an_exception_of_a_phrase_reads_in_the_language_and_others_stay_as_they_are() -> None:
    refused = IllegalAction(2, "pass", "x")
    assert str(refused) == "seat 2 cannot pass: x"
    assert reason_in(refused, "ru") == "место 2 не может pass: x"
    assert reason_in(ValueError("disk full"), "ru") == "disk full"
    assert reason_in("a peer's own words", "ru") == "a peer's own words"


def test_a_phrase_survives_a_copy_and_a_pickle() -> None:
    said = phrase("engine.cannot", seat=0, action="draw", rule=phrase("net.not_allowed", rule="y"))
    for again in (copy.copy(said), copy.deepcopy(said), pickle.loads(pickle.dumps(said))):
        assert isinstance(again, Phrase)
        assert again == said and again.in_("ru") == said.in_("ru")
    error = pickle.loads(pickle.dumps(IllegalAction(1, "draw", "z")))
    assert reason_in(error, "ru") == "место 1 не может draw: z"


def test_an_exception_given_as_a_value_reads_in_the_same_language() -> None:
    wrapped = phrase("net.not_allowed", rule=IllegalAction(0, "pass", "x"))
    assert wrapped == "That move is not allowed: seat 0 cannot pass: x"
    assert wrapped.in_("ru") == "Так ходить нельзя: место 0 не может pass: x"
    assert phrase("net.not_allowed", rule=OSError("disk full")).in_("ru").endswith("disk full")


def test_an_error_that_says_itself_as_one_line_reads_in_the_language() -> None:
    from p2p_dominoes.session import InvalidMessage

    error = InvalidMessage("out-of-turn", phrase("net.not_this_seat"), seat=1)
    assert reason_in(error, "en") == str(error.said)
    assert "у этого ключа нет места" in reason_in(error, "ru")


def test_the_reason_of_an_error_keeps_its_phrase_for_later() -> None:
    from p2p_dominoes.words import reason_of

    kept = reason_of(RuntimeError(phrase("net.log_busy")))
    assert isinstance(kept, Phrase) and "процесс" in reason_in(kept, "ru")
    assert reason_of(RuntimeError("plain", 2)) == str(RuntimeError("plain", 2))
