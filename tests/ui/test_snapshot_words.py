"""The snapshot's sentences come from the catalogues; a count is said in its plural form."""

from __future__ import annotations

import pytest

from p2p_dominoes.ui.web.snapshot_words import snapshot_said


@pytest.mark.parametrize(
    ("lang", "count", "text"),
    [
        ("en", 1, "The boneyard is down to its last 1 tile, which is never drawn."),
        ("en", 2, "The boneyard is down to its last 2 tiles, which are never drawn."),
        ("ru", 1, "На базаре последняя 1 кость, её не берут."),
        ("ru", 2, "На базаре последние 2 кости, их не берут."),
        ("ru", 5, "На базаре последние 5 костей, их не берут."),
        ("ru", 21, "На базаре последняя 21 кость, её не берут."),
    ],
)
def test_the_reserve_is_counted_in_its_plural_form(lang: str, count: int, text: str) -> None:
    assert snapshot_said("reserve", lang, r=count) == text


def test_a_sentence_keeps_its_fields() -> None:
    assert snapshot_said("you_move", "ru", s=9) == (
        "У вас 9 с на ход, иначе стол остановится для всех."
    )
    assert snapshot_said("flash_placed-tile", "en") == "the tile's pips"
    with pytest.raises(TypeError):
        snapshot_said("reserve", "en", r="two")
