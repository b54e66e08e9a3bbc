"""A dropped connection instead of a kill: a peer's link goes down (as when Wi-Fi drops) for
longer than the transport's 5 s heartbeat timeout, so every connection to it is dropped; then
it comes back up. The peers redial on their own and catch up; the match completes, the records
are byte-identical and `verify` is clean.

Every peer runs in its own network namespace on a bridge of the fake LAN (tests/net/netns.py),
with ``--no-mdns`` and ``--interface`` its address there: nothing reaches a real interface.
"""

from __future__ import annotations

import os
import random
import time
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.chaos.figures import Figures
from tests.chaos.peers import (
    Peer,
    RecordProperty,
    Table,
    Wrap,
    check_completed,
    in_phase,
    wait_until,
)
from tests.net.netns import Lan, bridged_lan, namespace_support

PLAYERS = 4
HANDS = 4
ATTEMPTS = 3
OUTAGE_MAX = 12.0
"""Longest the link stays down: the heartbeat timeout (5 s) must have dropped connections."""

STALL = ("--stall-timeout", "60")
"""Well above the outage (so nobody is named), well below the default (a failure shows soon)."""

needs_namespaces = pytest.mark.skipif(
    namespace_support() is not None, reason=str(namespace_support())
)


def _inside(lan: Lan, index: int) -> Wrap:
    """Run a peer's command inside peer namespace `index` of the fake LAN."""

    def wrap(argv: list[str]) -> list[str]:
        return lan.exec_argv(index, argv)

    return wrap


def _lost(peer: Peer, other: Peer) -> bool:
    return f"Lost the connection to {other.label}." in peer.all_output()


def _again(peer: Peer, other: Peer) -> bool:
    return f"Connected again to {other.label}." in peer.all_output()


@needs_namespaces
@pytest.mark.netns
@pytest.mark.slow
@pytest.mark.parametrize("victim", [2, 0], ids=["joiner-link-down", "host-link-down"])
def test_a_link_down_long_enough_to_drop_connections_then_up(
    tmp_path: Path, figures: Figures, victim: int, record_property: RecordProperty
) -> None:
    rng = random.Random()
    with bridged_lan(PLAYERS, prefix=f"cx{os.getpid() % 100000}") as lan, ExitStack() as stack:
        wraps = [_inside(lan, i) for i in range(PLAYERS)]
        for attempt in range(ATTEMPTS):
            table = Table(tmp_path / f"match{attempt}", PLAYERS, HANDS, lan.v4, wraps, STALL)
            figures.matches_started += 1
            stack.enter_context(table)
            table.open()
            down = table.peers[victim]
            phase = rng.choice(("shuffle", "deal", "turns"))
            wait_until(in_phase(down, phase), 8.0)
            before = down.log()
            assert before is not None
            if before.finished is None:
                break
            # One hand can end a match (a domino against many tiles): play another one.
            assert set(table.wait_all(30.0).values()) == {0}, table.outputs()
            figures.matches_completed += 1
        else:
            raise AssertionError(f"{ATTEMPTS} matches were over before the link went down")
        others = [p for p in table.peers if p is not down]
        lan.set_link(victim, up=False)
        went_down = time.monotonic()
        try:
            dropped = wait_until(
                lambda: all(_lost(p, down) and _lost(down, p) for p in others),
                OUTAGE_MAX,
                0.1,
            )
            outage = time.monotonic() - went_down
        finally:
            lan.set_link(victim, up=True)
        came_up = time.monotonic()
        stuck = down.log()
        assert stuck is not None
        assert dropped, "the connections were not dropped:\n" + table.outputs()

        def moved() -> bool:
            view = down.log(cached=True)
            return view is not None and len(view.messages) > len(stuck.messages)

        back = wait_until(moved, 60.0)
        back_after = time.monotonic() - came_up if back else None
        outcome = check_completed(table, None, 90.0)
        # Every dropped connection came back directly (the host's too, which no one but
        # the joiners can redial), not just the catch-up through the other peers.
        for peer in others:
            assert _again(peer, down) and _again(down, peer), table.outputs()
        figures.matches_completed += 1
        figures.messages_checked += outcome.checked
        figures.messages_lost += len(outcome.lost)
        figures.outages.append(
            {
                "peer": down.label,
                "seat": stuck.seat,
                "went_down_after": before.last_type,
                "down_s": round(outage, 2),
                "messages_while_down": len(stuck.messages) - len(before.messages),
                "back_in_play_after_up_s": None if back_after is None else round(back_after, 2),
                "match_messages": len(outcome.messages),
            }
        )
        record_property("outage", figures.outages[-1])
        print(f"\n  {down.label} (seat {stuck.seat}) down {outage:.1f} s: {figures.outages[-1]}")
        assert not outcome.lost
