"""Fiat–Shamir transcript: every bound field and every record changes the challenge."""

from p2p_dominoes.mental.context import HandContext, ProofBinding, Step, StepKind
from p2p_dominoes.mental.group import L
from p2p_dominoes.mental.transcript import Transcript

CTX = HandContext(b"table", 1, 3)
BINDING = ProofBinding(CTX, Step(StepKind.SHUFFLE, 1), 1)
R = (b"ab", b"c")


def _challenge(binding: ProofBinding, name: bytes = b"p", records: tuple[bytes, ...] = ()) -> int:
    t = Transcript(name, binding)
    for r in records:
        t.append(b"x", r)
    return t.challenge(b"c")


def test_challenge_is_bound_to_everything() -> None:
    base = _challenge(BINDING, records=R)
    variants = [
        _challenge(BINDING, name=b"q", records=R),
        _challenge(ProofBinding(HandContext(b"tablf", 1, 3), BINDING.step, 1), records=R),
        _challenge(ProofBinding(HandContext(b"table", 2, 3), BINDING.step, 1), records=R),
        _challenge(ProofBinding(HandContext(b"table", 1, 4), BINDING.step, 1), records=R),
        _challenge(ProofBinding(CTX, Step(StepKind.SHUFFLE, 2), 1), records=R),
        _challenge(ProofBinding(CTX, Step(StepKind.SHARE, 1), 1), records=R),
        _challenge(ProofBinding(CTX, BINDING.step, 2), records=R),
        _challenge(BINDING, records=(b"a", b"bc")),  # framing: no ambiguity
        _challenge(BINDING, records=(b"ab",)),
    ]
    assert len({base, *variants}) == len(variants) + 1
    assert all(0 <= v < L for v in variants)


def test_challenge_does_not_consume_state() -> None:
    t = Transcript(b"p", BINDING)
    assert t.challenge(b"u") == t.challenge(b"u") != t.challenge(b"v")
