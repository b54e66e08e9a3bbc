"""Hand context and steps: validation and unambiguous encodings."""

import pytest

from p2p_dominoes.mental.context import HandContext, Step, StepKind


def test_context_validation() -> None:
    HandContext(b"t", 0, 2)
    for kwargs in (
        {"table_id": b"", "hand_number": 0, "seats": 2},
        {"table_id": b"t" * 256, "hand_number": 0, "seats": 2},
        {"table_id": b"t", "hand_number": -1, "seats": 2},
        {"table_id": b"t", "hand_number": 2**64, "seats": 2},
        {"table_id": b"t", "hand_number": 0, "seats": 1},
        {"table_id": b"t", "hand_number": 0, "seats": 5},
        {"table_id": b"t", "hand_number": 0, "seats": 2, "version": 2},
    ):
        with pytest.raises(ValueError):
            HandContext(**kwargs)  # type: ignore[arg-type]


def test_encodings_are_unambiguous() -> None:
    assert HandContext(b"ab", 1, 2).to_bytes() != HandContext(b"a", 1, 2).to_bytes()
    assert HandContext(b"t", 1, 2).to_bytes() == bytes.fromhex("00010000000174") + (
        (1).to_bytes(8, "big") + b"\x02"
    )
    assert Step(StepKind.SHARE, 3).to_bytes() == b"\x04\x03"
    assert str(Step(StepKind.SHUFFLE, 2)) == "shuffle 2"
