"""Blame reaches everyone: a cheat sent to one peer only stops every peer at once.

The peer that catches the cheat forwards the signed evidence to every seat; each peer re-checks
it on its own transcript and stops naming the cheater — with the same reason when the cheater
sent the others nothing for that place, or as an equivocation when it sent them a valid message
instead. No peer waits for the stall timeout, and the blame says who forwarded the evidence.
"""

from __future__ import annotations

from p2p_dominoes.session import Envelope, Identity, Phase
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import REGISTRY, play_table, resign, rewriting_link
from tests.session.test_table_cheaters import shuffle_cheat, swapped

CHEATER, VICTIM, PLAYERS = 1, 2, 4


def _cheat_to_the_victim_only(ids: list[Identity], others_get_the_honest_one: bool) -> LocalTable:
    """The cheater's shuffle reaches the victim swapped; the others get nothing, or the honest
    shuffle. No catch-up round runs, so only forwarding can tell the others."""
    rewrite = shuffle_cheat(swapped)
    if others_get_the_honest_one:
        link = rewriting_link(CHEATER, "shuffle", ids[CHEATER], rewrite, only_to=VICTIM)
    else:
        cache: dict[bytes, bytes] = {}

        def link(sender: int, receiver: int, data: bytes) -> list[bytes]:
            envelope = Envelope.decode(data, REGISTRY)
            if sender != CHEATER or envelope.type.name != "shuffle":
                return [data]
            if receiver != VICTIM:
                return []  # the others hear nothing from the cheater for this place
            if data not in cache:
                cache[data] = resign(envelope, ids[CHEATER], rewrite(envelope))
            return [cache[data]]

    def setup(table: LocalTable) -> None:
        table.catch_up = lambda: False  # type: ignore[method-assign]

    played = play_table("draw", PLAYERS, link=link, identities=ids, setup=setup)
    return played.table


def test_a_cheat_sent_to_one_peer_stops_every_peer_with_the_same_reason() -> None:
    ids = [Identity.generate() for _ in range(PLAYERS)]
    table = _cheat_to_the_victim_only(ids, others_get_the_honest_one=False)
    honest = [s for seat, s in enumerate(table.sessions) if seat != CHEATER]
    assert all(s.phase is Phase.HALTED and s.blame is not None for s in honest)
    blames = [s.blame for s in honest if s.blame is not None]
    same = {(b.seat, b.code, b.reason) for b in blames}
    assert same == {(CHEATER, "bad-proof", blames[0].reason)}  # one verdict, word for word
    victim = table.sessions[VICTIM].blame
    assert victim is not None and victim.via is None  # it caught the cheat itself
    for seat in (0, 3):
        blame = table.sessions[seat].blame
        assert blame is not None and blame.via == VICTIM  # and the record says who told it
        assert str(blame).endswith(f"(evidence forwarded by seat {VICTIM + 1})")
        assert blame.evidence == victim.evidence  # the same signed message, re-checked here


def test_a_cheat_sent_to_one_peer_while_the_others_got_a_valid_message_is_equivocation() -> None:
    ids = [Identity.generate() for _ in range(PLAYERS)]
    table = _cheat_to_the_victim_only(ids, others_get_the_honest_one=True)
    victim = table.sessions[VICTIM].blame
    assert victim is not None and (victim.seat, victim.code) == (CHEATER, "bad-proof")
    for seat in (0, 3):
        session = table.sessions[seat]
        assert session.phase is Phase.HALTED and session.blame is not None
        assert (session.blame.seat, session.blame.code) == (CHEATER, "equivocation")
        assert session.blame.via == VICTIM
        assert victim.evidence[0] in session.blame.evidence  # both signed messages kept
