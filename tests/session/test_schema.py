"""Body schema validators: exact types, bounds, and normalisation to tuples."""

from __future__ import annotations

import pytest

from p2p_dominoes.session import (
    ArrayOf,
    Bin,
    Bool,
    Checked,
    Int,
    InvalidMessage,
    Nullable,
    Opaque,
    Text,
    record,
)

POSITION = record(("deck_position", Int(0, 27)), ("point", Bin(32)), ("face_up", Bool()))


def test_record_checks_and_normalises() -> None:
    assert POSITION.check([3, b"\x00" * 32, True], "play") == (3, b"\x00" * 32, True)
    assert POSITION.names == ("deck_position", "point", "face_up")
    assert POSITION.index("point") == 1


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        ([True, b"\x00" * 32, True], "play.deck_position: expected int, got bool"),
        ([28, b"\x00" * 32, True], "outside [0, 27]"),
        ([3, b"\x00" * 31, True], "play.point: expected 32 bytes"),
        ([3, bytearray(32), True], "expected bin, got bytearray"),
        ([3, b"\x00" * 32, 1], "play.face_up: expected bool, got int"),
        ([3, b"\x00" * 32], "expected 3 fields"),
        ({"deck_position": 3}, "expected array, got dict"),
    ],
)
def test_record_rejections_say_where(value: object, fragment: str) -> None:
    with pytest.raises(InvalidMessage, match="bad-body") as caught:
        POSITION.check(value, "play")
    assert fragment in caught.value.reason


def test_array_bounds_and_items() -> None:
    deck = ArrayOf(Bin(32), min_len=1, max_len=28)
    assert deck.check([b"\x01" * 32] * 28, "deck") == (b"\x01" * 32,) * 28
    for bad in ([], [b"\x01" * 32] * 29, [b"\x01" * 31]):
        with pytest.raises(InvalidMessage):
            deck.check(bad, "deck")


def test_bin_ranges_nullable_and_checked() -> None:
    assert Bin(min_size=1, max_size=3).check(b"ab", "x") == b"ab"
    with pytest.raises(InvalidMessage):
        Bin(min_size=1, max_size=3).check(b"", "x")
    assert Nullable(Int()).check(None, "x") is None
    even = Checked(Int(), lambda v: isinstance(v, int) and v % 2 == 0, "even number")
    assert even.check(4, "x") == 4
    with pytest.raises(InvalidMessage, match="not a valid even number"):
        even.check(3, "x")


def test_text_limits_count_utf8_bytes() -> None:
    assert Text(4).check("ЖЖ", "name") == "ЖЖ"
    with pytest.raises(InvalidMessage, match="UTF-8 bytes"):
        Text(4).check("ЖЖЖ", "name")
    with pytest.raises(InvalidMessage, match="U\\+0000"):
        Text(10).check("a\x00b", "name")


def test_opaque_accepts_plain_data_only() -> None:
    value = [None, True, -5, 2**64 - 1, "s", b"b", [[1], []]]
    assert Opaque().check(value, "rules") == (None, True, -5, 2**64 - 1, "s", b"b", ((1,), ()))
    bad: object
    for bad in (1.0, {"a": 1}, 2**64, -(2**63) - 1, [[[[1]]]], set()):
        with pytest.raises(InvalidMessage):
            Opaque(max_depth=3).check(bad, "rules")


def test_int_bounds_must_fit_msgpack() -> None:
    with pytest.raises(ValueError):
        Int(0, 2**64)
    with pytest.raises(ValueError):
        Int(5, 4)
