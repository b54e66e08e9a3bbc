"""How `bench` writes a figure in the language of its text (its words are catalogue entries,
``bench.*``, said where each benchmark prints; the JSON objects are for machines and the same in
every language)."""

from __future__ import annotations


def grouped(value: object, lang: str, width: int = 10) -> str:
    """A count right-aligned in `width` columns, thousands grouped: "12,345" in English and
    "12 345" in Russian (where a comma is the decimal sign, so "12,345" would read as twelve)."""
    assert isinstance(value, int | float)
    text = f"{value:>{width},.0f}"
    return text if lang != "ru" else text.replace(",", " ")
