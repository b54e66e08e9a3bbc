"""House rules over the real protocol: random valid switch sets, void hands and redeals, skip.

Every table below runs one full peer session per seat in this process (real signatures, proven
shuffles and deals, the end-of-hand audit); every peer must end with the same transcript and an
offline verifier must find it clean. A secure hand costs real cryptography, so each switch set
plays one or two hands.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from p2p_dominoes.bots import greedy_bot, random_bot
from p2p_dominoes.engine import PRESETS, HandEnd, InvalidRecord, Rules, replay
from p2p_dominoes.engine.actions import SKIP
from p2p_dominoes.engine.rules import FIELDS, draft_of
from p2p_dominoes.mental.randomness import DeterministicRandom
from p2p_dominoes.session import Identity, Phase
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.events import ActionTaken, Event, HandEnded, HandRedealt, MatchEnded
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.ui.narration import narrate
from tests.session.tables import send_as

SETS = 20
"""How many random switch sets play over the protocol (the issue asks for 20)."""


def random_rules(rng: random.Random, number: int) -> Rules:
    """A valid switch set a player could write: a preset, then random values of played switches
    (kept only when the rules accept the whole set)."""
    while True:
        out: dict[str, Any] = draft_of(rng.choice(sorted(PRESETS)))
        out["name"] = f"random-{number}"
        for spec in FIELDS:
            if spec.name in ("name", "hand_sizes", "targets", "stall_timeout_s"):
                continue
            if not spec.playable or rng.random() < 0.6:
                continue
            if spec.kind == "enum":
                out[spec.name] = rng.choice(spec.choices)
            elif spec.kind == "bool":
                out[spec.name] = rng.random() < 0.5
            elif spec.int_choices:
                out[spec.name] = rng.choice(spec.int_choices)
            else:
                assert spec.low is not None and spec.high is not None
                out[spec.name] = rng.randint(spec.low, min(spec.high, 12))
        if rng.random() < 0.4:
            counts = sorted(rng.sample([2, 3, 4], rng.randint(1, 3)))
            out["hand_sizes"] = [[n, rng.randint(3, 28 // n)] for n in counts]
            out["targets"] = [] if out["goal"] == "fixed-hands" else [[n, 60] for n in counts]
        try:
            return Rules.from_dict(out)
        except InvalidRecord:
            continue


def run(
    rules: Rules,
    players: int,
    seed: int,
    hands: int | None,
    bots: list[Callable[..., Any]] | None = None,
) -> tuple[LocalTable, list[Event]]:
    """Play a table to its end; the events seat 0 saw."""
    table = LocalTable.create(
        rules,
        [f"p{s}" for s in range(players)],
        bots or [greedy_bot, random_bot, greedy_bot, random_bot][:players],
        seed=seed,
        max_hands=hands,
        identities=[Identity.generate() for _ in range(players)],
        rngs=[DeterministicRandom(f"house/{seed}/{s}".encode()) for s in range(players)],
    )
    events: list[Event] = []
    table.on_event = lambda seat, event: events.append(event) if seat == 0 else None
    table.run()
    return table, events


def assert_clean(table: LocalTable, events: list[Event]) -> None:
    """Every peer finished without blame on one transcript, which verifies clean offline, and
    the engine alone replays every audited deal to the same result."""
    sessions = table.sessions
    assert [s.blame for s in sessions] == [None] * len(sessions)
    assert all(s.phase is Phase.OVER for s in sessions)
    files = {s.transcript.to_bytes() for s in sessions}
    assert len(files) == 1
    report = verify_transcript(files.pop())
    assert report.ok and report.complete, report.failure
    assert report.scores == sessions[0].scores
    for ended in (e for e in events if isinstance(e, HandEnded)):
        assert replay(ended.record).result == ended.result


@pytest.mark.slow
def test_twenty_random_switch_sets_play_to_the_end_for_two_to_four_seats() -> None:
    rng = random.Random(20261201)
    seen_players = set()
    for number in range(SETS):
        rules = random_rules(rng, number)
        players = rules.player_counts[number % len(rules.player_counts)]
        seen_players.add(players)
        table, events = run(rules, players, number, hands=1)
        assert_clean(table, events)
        final = next(e for e in events if isinstance(e, MatchEnded))
        assert final.hands == 1 or final.outcome.over
    assert seen_players == {2, 3, 4}


def test_a_deal_with_no_opening_double_is_redealt_in_the_same_transcript() -> None:
    rules = Rules.from_dict(
        {
            "base": "house",
            "name": "redeal",
            "hand_sizes": [[2, 2]],
            "targets": [[2, 101]],
            "first_fallback": "redeal",
        }
    )
    for seed in range(30):
        table, events = run(rules, 2, seed, hands=1)
        redeals = [e for e in events if isinstance(e, HandRedealt)]
        if not redeals:
            continue
        assert_clean(table, events)
        void = redeals[0]
        assert not any(t.is_double for hand in void.hands for t in hand)
        ended = [e for e in events if isinstance(e, HandEnded)]
        assert [e.number for e in ended] == [void.number + len(redeals)]  # the counted hand
        assert ended[0].record.hand == 1  # opened as if the void deal had never been
        claims = [e for e in table.sessions[0].transcript if e.type is msg.LEAD_CLAIM3]
        assert claims[0].field("hand") == void.number
        assert all(c.field("claim") is None for c in claims[:2])  # nobody held a double
        reveals = [e for e in table.sessions[0].transcript if e.type is msg.HAND_REVEAL]
        assert {e.field("hand") for e in reveals} == {ended[0].number}  # none for the void
        report = verify_transcript(table.sessions[0].transcript.to_bytes())
        assert report.hands == 1 and report.void_hands == len(redeals)
        assert narrate(void, ["a", "b"])[-1].endswith("it is void and dealt again.")
        assert narrate(void, ["a", "b"], "ru")[-1].endswith("сдача не в счёт, пересдача.")
        return
    raise AssertionError("no deal without a double in 30 tables (p ≈ 0.29 each)")


def test_a_blocked_hand_that_does_not_count_is_void_and_the_next_hand_is_dealt() -> None:
    rules = Rules.from_dict(
        {
            "base": "draw",
            "name": "no-fish",
            "fish_counts": False,
            "hand_sizes": [[2, 12]],
            "targets": [[2, 100]],
        }
    )  # a boneyard of 4 with 2 never drawn: blocks are common
    for seed in range(30):
        table, events = run(rules, 2, seed, hands=1, bots=[greedy_bot, greedy_bot])
        ended = [e for e in events if isinstance(e, HandEnded)]
        if ended[0].result.end is not HandEnd.VOID:
            continue
        assert_clean(table, events)
        assert ended[0].scores == (0, 0)  # a void hand scores nothing
        assert ended[-1].result.end is not HandEnd.VOID  # and the match went on to count one
        assert table.sessions[0].match.counted_hands == 1
        report = verify_transcript(table.sessions[0].transcript.to_bytes())
        assert report.hands == 1 and report.void_hands >= 1 and report.limit_reached
        return
    raise AssertionError("no blocked hand in 30 tables")


def test_a_second_double_may_be_declined_with_skip() -> None:
    rules = Rules.from_dict({"base": "draw", "name": "two-doubles", "two_doubles": True})
    for seed in range(20):
        table, events = run(rules, 2, seed, hands=1)
        if not any(isinstance(e, ActionTaken) and e.action == SKIP for e in events):
            continue
        assert_clean(table, events)
        assert any(e.type is msg.SKIP for e in table.sessions[1].transcript)
        return
    raise AssertionError("no skip in 20 hands")


def test_a_skip_with_no_double_to_decline_is_refused_at_once() -> None:
    rules = Rules.from_dict({"base": "draw", "name": "two-doubles", "two_doubles": True})
    table = LocalTable.create(
        rules,
        ["a", "b"],
        [greedy_bot, greedy_bot],
        max_hands=1,
        identities=[Identity.generate(), Identity.generate()],
    )
    sent: list[bool] = []

    def cheat() -> None:
        for seat, session in enumerate(table.sessions):
            hand = session.hand
            public = None if hand is None else hand.public
            free = public is not None and not public.second_double
            if session.awaiting_action and free and not sent and hand is not None:
                sent.append(True)
                skip = session._sign(msg.SKIP, (hand.number,))
                send_as(table, seat, skip.encode())
                return

    for s, session in enumerate(table.sessions):
        table._broadcast(s, session.start())
    while not sent:
        assert table.step() or table.catch_up()
        cheat()
    table.run()
    blames = {(b.seat, b.code) for b in table.blames if b}
    assert len(blames) == 1 and blames.pop()[1] == "illegal-action"
    reason = next(b.reason for b in table.blames if b)
    assert "there is no second double to decline" in reason
