"""A seat that comes back from its transcript (as `resume` does from the table log) in the middle
of a version 2 claim phase, after a redeal, and finishes the match with the others."""

from __future__ import annotations

from p2p_dominoes.bots import greedy_bot
from p2p_dominoes.engine import Rules
from p2p_dominoes.mental import HandContext, HandKeys, RandomSource, new_hand_keys
from p2p_dominoes.session import (
    Identity,
    Phase,
    TableSession,
    Transcript,
    default_registry,
    new_table_nonce,
)
from p2p_dominoes.session.events import Event, HandRedealt
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript

REDEAL = Rules.from_dict(
    {
        "base": "house",
        "name": "redeal",
        "hand_sizes": [[2, 2]],
        "targets": [[2, 101]],
        "first_fallback": "redeal",
    }
)


class KeptKeys:
    """Per-hand keys kept by context, as the store keeps them before they are used."""

    def __init__(self) -> None:
        self.kept: dict[HandContext, HandKeys] = {}

    def __call__(self, ctx: HandContext, seat: int, rng: RandomSource) -> HandKeys:
        if ctx not in self.kept:
            self.kept[ctx] = new_hand_keys(ctx, seat, rng)
        return self.kept[ctx]


def step_until(table: LocalTable, done: object) -> bool:
    for _ in range(100_000):
        if callable(done) and done():
            return True
        if not table.step() and not table.catch_up():
            return False
    return False


def resumed_mid_claims(seed: int) -> tuple[LocalTable, TableSession] | None:
    """Play until seat 1 is in a claim phase after a redeal, then replace its peer by one
    rebuilt from its transcript and its kept keys (None: this table had no redeal)."""
    ids = [Identity.generate(), Identity.generate()]
    nonces = [new_table_nonce(), new_table_nonce()]
    table = LocalTable.create(
        REDEAL,
        ["a", "b"],
        [greedy_bot, greedy_bot],
        seed=seed,
        max_hands=1,
        identities=ids,
        nonces=nonces,
    )
    keys = KeptKeys()
    table.sessions[1]._hand_keys = keys
    events: list[Event] = []
    table.on_event = lambda seat, event: events.append(event) if seat == 1 else None
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    old = table.sessions[1]

    def mid_claims_after_a_redeal() -> bool:
        redealt = any(isinstance(e, HandRedealt) for e in events)
        return redealt and old.phase is Phase.LEAD_CLAIM

    if not step_until(table, mid_claims_after_a_redeal):
        return None
    entries = old.transcript.entries
    resumed = TableSession(
        Transcript(entries[0].envelope, default_registry()),
        1,
        ids[1],
        hand_keys=keys,
        table_nonce=nonces[1],
    )
    for entry in entries[1:]:
        resumed.admit(entry.envelope)
    assert resumed.transcript.head == old.transcript.head
    assert resumed.phase is Phase.LEAD_CLAIM
    table.sessions[1] = resumed
    table._broadcast(1, resumed.start())
    return table, resumed


def test_a_seat_resumes_mid_claims_after_a_redeal_and_the_match_ends_clean() -> None:
    for seed in range(40):
        found = resumed_mid_claims(seed)
        if found is None:
            continue
        table, resumed = found
        step_until(table, lambda: all(s.finished for s in table.sessions))  # noqa: B023
        assert [s.phase for s in table.sessions] == [Phase.OVER, Phase.OVER]
        assert table.blames == [None, None]
        data = table.sessions[0].transcript.to_bytes()
        assert data == resumed.transcript.to_bytes()
        assert verify_transcript(data).ok
        return
    raise AssertionError("no redeal in 40 tables")
