"""kill -9 chaos over real processes: 4-seat matches survive peers (the host too) dying at any
point and coming back with `p2p-dominoes resume`.

Each match is a host and three joiners on 127.0.0.1, random bots, each with its own data
directory and record. Once every seat has sat down, peers are killed one after another: some at
a random moment, others when their log shows a wanted phase (the shuffle, the deal, a turn, the
end-of-hand reveal and audit, the key setup), so that every phase is hit in every run. Each is
restarted with `resume` after a short pause. Then: every process exits 0, the four records are
byte-identical, every peer's log holds exactly the record, `verify` is clean on every record
and log, and every message any peer had logged when it died is in the final transcript.

The seed is printed; P2PD_CHAOS_SEED=N replays a run's choices (not its timing).
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.chaos.figures import Figures
from tests.chaos.peers import (
    Chaos,
    Kill,
    Peer,
    RecordProperty,
    Table,
    check_completed,
    in_phase,
    sender,
    wait_until,
)

PLAYERS = 4
KILLS = 32
"""Kills to reach across the matches of the run (the issue asks for at least 30)."""
MAX_MATCHES = 10
KILLS_PER_MATCH = 9
HANDS = 6
"""Hands per match: enough for the kills of one match, a few seconds each without them."""
TARGETS: tuple[str | None, ...] = ("shuffle", "deal", "turns", "reveal", None, "setup")
"""What each kill waits for, in turn: a phase in the victim's log, or None (a random moment)."""
PAIR_MOMENTS = 3
"""Moments at which two peers die together."""
PHASE_WAIT = 8.0
MATCH_TIMEOUT = 120.0
REQUIRED_PHASES = ("shuffle", "deal", "turns", "reveal")


def _seed() -> int:
    return int(os.environ.get("P2PD_CHAOS_SEED", random.randrange(1 << 32)))


def _wait_for_phase(victim: Peer, phase: str | None, rng: random.Random) -> None:
    """Wait for the kill moment: the victim's log in `phase` (or, after PHASE_WAIT, whatever
    it is in), or a random moment when `phase` is None."""
    if phase is None:
        time.sleep(rng.uniform(0.05, 0.8))
    else:
        wait_until(in_phase(victim, phase), PHASE_WAIT, 0.005)


def _play_with_kills(
    root: Path,
    rng: random.Random,
    kills: int,
    together: int,
    first_target: int,
    figures: Figures,
) -> Chaos:
    """One match with up to `kills` moments at which `together` peers are killed and resumed
    (fewer if the match ends first), then the end-of-match checks."""
    table = Table(root, PLAYERS, HANDS, ["127.0.0.1"] * PLAYERS)
    chaos = Chaos(table)
    with table:
        table.open()
        moments = attempts = 0
        while moments < kills:
            candidates = chaos.candidates()
            if len(candidates) < together:
                break  # the match is over
            target = TARGETS[(first_target + attempts) % len(TARGETS)]
            attempts += 1
            if moments == 0 and table.host in candidates:
                others = [p for p in candidates if p is not table.host]
                victims = [table.host, *rng.sample(others, together - 1)]
            else:
                victims = rng.sample(candidates, together)
            _wait_for_phase(victims[0], target, rng)
            if any(v not in chaos.candidates() for v in victims):
                continue
            chaos.kill_and_resume(victims, pause=rng.uniform(0.0, 0.4))
            moments += 1
            time.sleep(rng.uniform(0.0, 0.3))
        outcome = check_completed(table, chaos, MATCH_TIMEOUT)
    figures.matches_completed += 1
    figures.add_kills(root.name, chaos.kills)
    figures.messages_checked += outcome.checked
    figures.messages_lost += len(outcome.lost)
    assert not outcome.lost, f"{len(outcome.lost)} logged messages are not in the final record"
    for kill in chaos.kills:
        assert kill.survived or not kill.resumed, kill
    print(
        f"  {root.name}: {len(chaos.kills)} kills, {len(outcome.messages)} messages, "
        "records identical, verify clean"
    )
    for kill in chaos.kills:
        print(_describe(kill))
    return chaos


def _logged(peer: Peer) -> int:
    view = peer.log()
    return 0 if view is None else len(view.messages)


def _describe(kill: Kill) -> str:
    back = f"{kill.back_in_play_s:.2f} s" if kill.back_in_play_s is not None else "finished"
    return (
        f"    kill {kill.label} (seat {kill.seat}) after {kill.last_type} "
        f"[{kill.phase}, {kill.messages} msgs]; back in play {back}"
    )


@pytest.mark.slow
def test_kill_minus_nine_at_any_point_and_resume(
    tmp_path: Path, figures: Figures, record_property: RecordProperty
) -> None:
    seed = _seed()
    print(f"\nchaos seed {seed} (P2PD_CHAOS_SEED={seed} replays the choices)")
    rng = random.Random(seed)
    kills: list[Kill] = []
    match = 0
    while len(kills) < KILLS and match < MAX_MATCHES:
        figures.matches_started += 1
        chaos = _play_with_kills(
            tmp_path / f"match{match}", rng, KILLS_PER_MATCH, 1, match, figures
        )
        kills += chaos.kills
        match += 1
    phases = Counter(kill.phase for kill in kills)
    types = Counter(kill.last_type for kill in kills)
    print(f"coverage by phase: {dict(phases)}")
    print(f"coverage by last logged message: {dict(types)}")
    record_property("kills", len(kills))
    record_property("kills_by_phase", dict(phases))
    assert len(kills) >= 30, f"only {len(kills)} kills"
    missing = [phase for phase in REQUIRED_PHASES if not phases[phase]]
    assert not missing, f"no kill during {missing}: {dict(phases)}"
    assert any(kill.seat == 0 for kill in kills), "the host was never killed"


@pytest.mark.slow
def test_two_peers_killed_at_once_both_resume(
    tmp_path: Path, figures: Figures, record_property: RecordProperty
) -> None:
    seed = _seed()
    print(f"\nchaos seed {seed}")
    rng = random.Random(seed)
    kills: list[Kill] = []
    match = 0
    while len(kills) < 2 * PAIR_MOMENTS and match < 4:
        figures.matches_started += 1
        chaos = _play_with_kills(tmp_path / f"pairs{match}", rng, 3, 2, match, figures)
        kills += chaos.kills
        match += 1
    record_property("kills", len(kills))
    pairs = [k for k in kills if k.together == 2 and k.resumed]
    assert len(pairs) >= 2 * PAIR_MOMENTS, kills
    assert any(k.seat == 0 for k in pairs), "the host was never one of the pair"


@pytest.mark.slow
@pytest.mark.parametrize("pause", [0.0, 3.0], ids=["resumed-at-once", "resumed-after-3s"])
def test_a_peer_killed_as_the_others_finish_still_gets_the_last_messages(
    tmp_path: Path, figures: Figures, pause: float, record_property: RecordProperty
) -> None:
    """The end of the match: the first peer has logged "over" and another is killed before it
    has (it may lack the last messages, which then live only with the others). It resumes, even
    seconds later, and finishes: the others wait for every seat to hold the final head."""
    figures.matches_started += 1
    table = Table(tmp_path, PLAYERS, 1, ["127.0.0.1"] * PLAYERS)
    chaos = Chaos(table)
    with table:
        table.open()

        def someone_finished() -> bool:
            return any((v := p.log(cached=True)) is not None and v.finished for p in table.peers)

        assert wait_until(someone_finished, 60.0, 0.002), table.outputs()
        behind = sorted(chaos.candidates(), key=_logged)
        if behind:
            chaos.kill_and_resume(behind[:1], pause=pause)
        outcome = check_completed(table, chaos, MATCH_TIMEOUT)
    figures.matches_completed += 1
    figures.add_kills(tmp_path.name, chaos.kills)
    figures.messages_checked += outcome.checked
    figures.messages_lost += len(outcome.lost)
    assert not outcome.lost
    for kill in chaos.kills:
        lacked = len(outcome.messages) - kill.messages
        record_property("lacked", lacked)
        print(f"\n{_describe(kill)}; it lacked {lacked} of {len(outcome.messages)} messages")
        assert kill.survived or not kill.resumed, kill


@pytest.mark.slow
@pytest.mark.parametrize(
    "pause",
    [0.0, 0.0, 0.0, 2.0],
    ids=["resumed-at-once-1", "resumed-at-once-2", "resumed-at-once-3", "resumed-after-2s"],
)
def test_the_last_sender_killed_before_its_last_message_left_resumes_and_delivers_it(
    tmp_path: Path, figures: Figures, pause: float, record_property: RecordProperty
) -> None:
    """The match's last message is the last seat's secret reveal. Killed the moment it is in
    that seat's log, it has often reached no one else (it goes out after the log's fsyncs), so
    it exists in that one log only: the peer must still be resumable (its log must not say
    "over" before the others hold the final head, else `resume` refuses the table and the
    others wait for that message until they name it as stalling), and resumed, it must deliver
    it. The moment is a matter of milliseconds, hence the repeats."""
    figures.matches_started += 1
    stall = ("--stall-timeout", "30")  # a failure shows as a stall, not a hang
    table = Table(tmp_path, PLAYERS, 1, ["127.0.0.1"] * PLAYERS, host_args=stall)
    chaos = Chaos(table)
    with table:
        table.open()
        last = table.by_seat()[PLAYERS - 1]

        def sent_the_last() -> bool:
            view = last.log(cached=True)
            if view is None or view.last_type != "secret_reveal":
                return False
            return sender(view.messages[-1]) == PLAYERS - 1

        assert wait_until(sent_the_last, 60.0, 0.0005), table.outputs()
        chaos.kill_and_resume([last], pause=pause)
        outcome = check_completed(table, chaos, MATCH_TIMEOUT)
    figures.matches_completed += 1
    figures.add_kills(tmp_path.name, chaos.kills)
    figures.messages_checked += outcome.checked
    figures.messages_lost += len(outcome.lost)
    assert not outcome.lost
    kill = chaos.kills[0]
    assert kill.messages == len(outcome.messages)  # it was the match's last message
    # Resumed and back, or its log said "over" only once every other peer held it.
    assert kill.survived or (kill.finished_at_kill and kill.last_reached == PLAYERS - 1), kill
    record_property("others_holding_it_at_the_kill", kill.last_reached)
    print(f"\n{_describe(kill)}; {kill.last_reached} of {PLAYERS - 1} others held it at the kill")
