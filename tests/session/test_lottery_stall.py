"""A seat that goes silent during the opener lottery is named as such.

The last seat to reveal its key share is the only one that knows the hand's lottery value
(who opens, when the lottery decides) before the others; its silence at that moment may be a
choice against the outcome, so the stall it earns says so (docs/threat-model.md, *Lottery*).
"""

from __future__ import annotations

from p2p_dominoes.session import LOTTERY_STALL, Envelope, Phase, is_lottery_stall
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import REGISTRY, Played, play_table


def _silent_at_reveal(silent: int) -> Played:
    """A 3-seat table where `silent`'s key reveal never leaves its peer (nor comes by catch-up)."""

    def link(sender: int, receiver: int, data: bytes) -> list[bytes]:
        if sender == silent and Envelope.decode(data, REGISTRY).type.name == "key_reveal":
            return []
        return [data]

    def setup(table: LocalTable) -> None:
        table.catch_up = lambda: False  # type: ignore[method-assign]

    return play_table("draw", 3, link=link, setup=setup)


def test_the_last_revealer_going_silent_is_named_for_the_lottery() -> None:
    played = _silent_at_reveal(2)
    for seat in (0, 1):
        session = played.sessions[seat]
        assert session.phase is Phase.REVEAL
        update = session.stall(2, 181.0)
        blame = session.blame
        assert blame is not None and blame.seat == 2 and blame.code == "stall"
        assert is_lottery_stall(blame) and LOTTERY_STALL in blame.reason
        assert "key_reveal" in blame.reason
        assert [e.blame for e in update.events if hasattr(e, "blame")] == [blame]


def test_an_earlier_revealer_going_silent_is_a_plain_stall() -> None:
    played = _silent_at_reveal(0)
    session = played.sessions[1]
    assert session.phase is Phase.REVEAL
    session.stall(0, 181.0)
    assert session.blame is not None and session.blame.code == "stall"
    assert not is_lottery_stall(session.blame)
