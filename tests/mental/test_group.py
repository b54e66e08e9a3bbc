"""Group layer: points and scalars cannot be invalid, libsodium errors become GroupError."""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from p2p_dominoes.mental import group
from p2p_dominoes.mental.errors import EncodingError, GroupError
from p2p_dominoes.mental.group import (
    BASE,
    IDENTITY,
    G,
    L,
    Point,
    Scalar,
    add,
    msm,
    mul,
    mul_base,
    sub,
)
from tests.mental.conftest import TORSION_8, pre_fix_is_valid, tag, tag_8

P_FIELD = 2**255 - 19
scalars = st.integers(min_value=1, max_value=L - 1)


def test_base_point_is_g() -> None:
    assert mul_base(1) == BASE == G.raw


@pytest.mark.parametrize(
    "raw",
    [
        IDENTITY,  # the neutral element
        TORSION_8,  # small order
        bytes(32),  # y = 0: order 4
        (P_FIELD).to_bytes(32, "little"),  # non-canonical encoding of y = 0
        (P_FIELD + 1).to_bytes(32, "little"),  # non-canonical encoding of the identity
        b"\xff" * 31 + b"\x7f",  # y >= p
        b"\x02" + bytes(31),  # not on the curve
    ],
)
def test_invalid_points_rejected(raw: bytes) -> None:
    with pytest.raises(EncodingError):
        Point(raw)


@pytest.mark.parametrize("tagger", [tag, tag_8], ids=["order-2 (CVE-2025-69277)", "order-8"])
def test_torsion_tagged_point_rejected(tagger: object) -> None:
    assert callable(tagger)
    with pytest.raises(EncodingError):
        Point(tagger(mul_base(12345)))


def test_the_cve_tag_passed_the_old_check_and_the_order_8_tag_did_not() -> None:
    # Why the tests tag with (0, −1): only that tag tells a fixed libsodium from a vulnerable one.
    assert pre_fix_is_valid(tag(mul_base(12345)))
    assert not pre_fix_is_valid(tag_8(mul_base(12345)))
    assert pre_fix_is_valid(mul_base(12345))


def test_the_start_up_check_passes_on_this_libsodium() -> None:
    assert group.subgroup_check_is_sound()


def test_the_start_up_check_fails_on_a_vulnerable_libsodium(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(group, "_sodium_is_valid", pre_fix_is_valid)
    assert not group.subgroup_check_is_sound()


@pytest.mark.parametrize("size", [0, 31, 33])
def test_point_wrong_length_rejected(size: int) -> None:
    with pytest.raises(EncodingError):
        Point(b"\x58" + bytes(size - 1) if size else b"")


def test_scalar_canonical_only() -> None:
    assert Scalar.from_bytes((L - 1).to_bytes(32, "little")).value == L - 1
    for bad in (L, L + 5, 2**256 - 1):
        with pytest.raises(EncodingError):
            Scalar.from_bytes(bad.to_bytes(32, "little"))
    with pytest.raises(EncodingError):
        Scalar.from_bytes(bytes(31))
    with pytest.raises(EncodingError):
        Scalar(-1)


def test_values_are_immutable_and_scalars_hidden() -> None:
    with pytest.raises(AttributeError):
        G.raw = b""  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Scalar(3).value = 4  # type: ignore[misc]
    assert "3" not in repr(Scalar(3))


def test_libsodium_refusals_become_group_error() -> None:
    with pytest.raises(GroupError):
        mul(0, BASE)  # zero scalar: identity output
    with pytest.raises(GroupError):
        mul(5, TORSION_8)  # small-order input
    with pytest.raises(GroupError):
        mul_base(0)
    with pytest.raises(GroupError):
        add(b"\x02" + bytes(31), BASE)  # not on the curve
    with pytest.raises(GroupError):
        G - G  # identity is never a Point


def test_msm_merges_bases_and_drops_zero_terms() -> None:
    p = mul_base(7)
    assert msm([(3, p), (4, p)]) == mul(7, p)
    assert msm([(5, BASE), (-5, BASE)]) == IDENTITY
    assert msm([(2, BASE), (3, p)]) == add(mul_base(2), mul(3, p))
    assert msm([]) == IDENTITY


@given(scalars, scalars)
def test_arithmetic_is_consistent(a: int, b: int) -> None:
    assume((a + b) % L != 0)
    assert add(mul_base(a), mul_base(b)) == mul_base((a + b) % L)
    assert mul(a, mul_base(b)) == mul_base(a * b % L)
    assert sub(mul_base(a), mul_base(b)) == msm([(a - b, BASE)])


@given(scalars)
def test_point_round_trip(a: int) -> None:
    point = Point.base_mul(a)
    assert Point.from_bytes(point.to_bytes()) == point


@given(st.integers(min_value=0, max_value=L - 1))
def test_scalar_round_trip(a: int) -> None:
    assert Scalar.from_bytes(Scalar(a).to_bytes()) == Scalar(a)
