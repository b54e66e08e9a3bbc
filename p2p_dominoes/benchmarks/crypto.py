"""`p2p-dominoes bench crypto`: the verified hand setup against naive SRA and libsodium's floor.

For each seat count it runs, in one process, everything every seat does before play: key
commit/reveal, the starting deck, every shuffle with its proof, every seat checking every other
seat's proof (decoding the message bytes, so every point is validated; the proofs are checked
together with `check_shuffles`, before any share is revealed), and the deal of all
hands with every share proven and checked by its recipient. It reports CPU time per phase; the
libsodium calls made (recorded in a separate run, then replayed alone to give a lower bound for
any implementation that makes those calls); and the same deal done with SRA in pure Python.
It also times the OR-proof of a v3 play (PROTOCOL.md §10.6) over 1, 7 and 14 held positions.
"""

from __future__ import annotations

import json
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Final

from p2p_dominoes.benchmarks.sra import RFC3526_GROUP14, sra_deal
from p2p_dominoes.engine import DRAW_RULES
from p2p_dominoes.mental import (
    Branch,
    DecryptionShare,
    HandContext,
    KeyCommit,
    KeyReveal,
    ShuffleStep,
    check_shuffles,
    combine_keys,
    make_share,
    new_hand_keys,
    open_position,
    partial_opening,
    prove_tile,
    shuffle_deck,
    starting_deck,
)
from p2p_dominoes.mental import group as _group
from p2p_dominoes.mental.context import Step, StepKind
from p2p_dominoes.mental.or_proof import check_tile
from p2p_dominoes.words import line, plural

OR_PROOF_SIZES = (1, 7, 14)
"""Held positions a play's OR-proof ranges over: a last tile, a dealt hand, the most today."""

PHASES = ("key setup", "starting deck", "shuffle + prove", "verify shuffles", "deal")
_SODIUM_NAMES = (
    "_sodium_mul",
    "_sodium_mul_base",
    "_sodium_add",
    "_sodium_sub",
    "_sodium_is_valid",
    "_sodium_from_uniform",
)
Call = tuple[Callable[..., Any], tuple[Any, ...]]


def hand_size(seats: int) -> int:
    """Tiles dealt to each seat by the default `draw` rules (7, 7, 6 for 2, 3, 4 players)."""
    return DRAW_RULES.hand_size(seats)


def verified_setup(seats: int) -> dict[str, float]:
    """Run one verified hand setup for `seats` seats; CPU seconds per phase, all seats summed."""
    cpu: dict[str, float] = dict.fromkeys(PHASES, 0.0)
    clock = time.process_time
    ctx = HandContext(b"bench-table", 1, seats)

    start = clock()
    keys = [new_hand_keys(ctx, seat) for seat in range(seats)]
    commits = [k.commit.to_bytes() for k in keys]
    reveals = [k.reveal.to_bytes() for k in keys]
    for _ in range(seats):  # every seat decodes and checks every commitment and reveal
        joint = combine_keys(
            ctx,
            [KeyCommit.from_bytes(data, s) for s, data in enumerate(commits)],
            [KeyReveal.from_bytes(data, s) for s, data in enumerate(reveals)],
        )
    cpu["key setup"] += clock() - start

    start = clock()
    for _ in range(seats):
        deck = starting_deck(joint)
    cpu["starting deck"] += clock() - start

    own, messages = [], []
    start = clock()
    for shuffler in range(seats):  # the chain runs without waiting for verification
        step = shuffle_deck(ctx, shuffler, joint, deck)
        own.append(step)
        messages.append(step.to_bytes())
        deck = step.deck
    cpu["shuffle + prove"] += clock() - start

    start = clock()
    for verifier in range(seats):  # before any share, each seat checks every other shuffle
        steps = [
            own[s] if s == verifier else ShuffleStep.from_bytes(messages[s], s)
            for s in range(seats)
        ]
        deck = check_shuffles(ctx, steps, joint, skip_seat=verifier)
    cpu["verify shuffles"] += clock() - start

    start = clock()
    size = hand_size(seats)
    for owner in range(seats):
        for position in range(owner * size, (owner + 1) * size):
            shares = [
                DecryptionShare.from_bytes(make_share(ctx, keys[s], deck, position).to_bytes(), s)
                for s in range(seats)
                if s != owner
            ]
            open_position(ctx, keys[owner], joint, deck, position, shares)
    cpu["deal"] += clock() - start
    return cpu


@contextmanager
def recording_sodium_calls() -> Iterator[list[Call]]:
    """Record every libsodium call the mental package makes (function and arguments)."""
    calls: list[Call] = []
    originals = {name: getattr(_group, name) for name in _SODIUM_NAMES}

    def recorder(function: Callable[..., Any]) -> Callable[..., Any]:
        def record(*args: Any) -> Any:
            calls.append((function, args))
            return function(*args)

        return record

    for name, function in originals.items():
        setattr(_group, name, recorder(function))
    try:
        yield calls
    finally:
        for name, function in originals.items():
            setattr(_group, name, function)


def replay(calls: list[Call]) -> float:
    """CPU seconds to make exactly these libsodium calls, with nothing around them."""
    clock = time.process_time
    start = clock()
    for function, args in calls:
        function(*args)
    return clock() - start


def _measure(seats: int, baseline: bool, repeats: int, sra_prime: int) -> dict[str, Any]:
    verified_setup(seats)  # warm-up: generators and other one-time caches
    with recording_sodium_calls() as calls:
        verified_setup(seats)
    names = {getattr(_group, n): n.removeprefix("_sodium_") for n in _SODIUM_NAMES}
    counts = Counter(names[function] for function, _ in calls)
    runs, floors = [], []
    for _ in range(repeats):  # interleaved, so both see the same machine phases
        runs.append(verified_setup(seats))
        floors.append(replay(calls))
    phases = {p: statistics.median(run[p] for run in runs) for p in PHASES}
    setup = statistics.median(sum(run.values()) for run in runs)
    floor = statistics.median(floors)
    result: dict[str, Any] = {
        "hand_size": hand_size(seats),
        "repeats": repeats,
        "phases_cpu_s": phases,
        "setup_cpu_s": setup,
        "libsodium_calls": dict(sorted(counts.items())),
        "libsodium_lower_bound_s": floor,
        "setup_over_lower_bound": setup / floor,
        "baseline_sra_cpu_s": None,
        "baseline_sra_modexps": None,
        "speedup_over_baseline": None,
    }
    if baseline:
        start = time.process_time()
        sra = sra_deal(seats, hand_size(seats), p=sra_prime)
        elapsed = time.process_time() - start
        result.update(
            baseline_sra_cpu_s=elapsed,
            baseline_sra_modexps=sra.modexps,
            speedup_over_baseline=elapsed / setup,
        )
    return result


def or_proof_figures(repeats: int) -> dict[str, dict[str, float]]:
    """Prove and verify time (median CPU ms) and bytes of a play's OR-proof for each size."""
    ctx = HandContext(b"bench-table", 1, 2)
    keys = [new_hand_keys(ctx, seat) for seat in range(2)]
    joint = combine_keys(ctx, [k.commit for k in keys], [k.reveal for k in keys])
    deck = shuffle_deck(ctx, 0, joint, starting_deck(joint)).deck
    owner, held = 1, list(range(7, 7 + max(OR_PROOF_SIZES)))
    openings: dict[int, bytes] = {}
    tiles: dict[int, int] = {}
    for position in held:
        shares = [make_share(ctx, keys[0], deck, position)]
        openings[position] = partial_opening(ctx, joint, deck, position, owner, shares)
        tiles[position] = open_position(ctx, keys[owner], joint, deck, position, shares)
    step, clock = Step(StepKind.PLAY, 0), time.process_time
    figures: dict[str, dict[str, float]] = {}
    for size in OR_PROOF_SIZES:
        branches = [Branch(p, deck[p].c1, openings[p]) for p in held[:size]]
        real = held[size // 2]
        proves, verifies, length = [], [], 0
        for _ in range(repeats):
            start = clock()
            proof = prove_tile(ctx, keys[owner], step, tiles[real], branches, real)
            middle = clock()
            check_tile(ctx, owner, step, tiles[real], proof, joint, branches)
            proves.append(middle - start)
            verifies.append(clock() - middle)
            length = len(proof)
        figures[str(size)] = {
            "bytes": length,
            "prove_ms": 1000 * statistics.median(proves),
            "verify_ms": 1000 * statistics.median(verifies),
        }
    return figures


PHASE_WORDS: Final = {
    "key setup": "bench.phase.key_setup",
    "starting deck": "bench.phase.starting_deck",
    "shuffle + prove": "bench.phase.shuffle_prove",
    "verify shuffles": "bench.phase.verify_shuffles",
    "deal": "bench.phase.deal",
}
"""The words of each phase the text shows (the JSON keeps the names in `PHASES`)."""


def _print_or_proof(figures: dict[str, dict[str, float]], lang: str = "en") -> None:
    print(line("bench.crypto.or_proof", lang))
    for size, f in figures.items():
        said = line(
            "bench.crypto.or_proof_row",
            lang,
            size=f"{size:>2}",
            bytes=f"{int(f['bytes']):4d}",
            prove=f"{f['prove_ms']:6.2f}",
            verify=f"{f['verify_ms']:6.2f}",
        )
        print(f"  {said}")
    print()


def _print_text(results: dict[str, dict[str, Any]], lang: str = "en") -> None:
    print(line("bench.crypto.title", lang))  # one sentence on two lines
    print(line("bench.crypto.cpu", lang) + "\n")
    seconds = line("bench.seconds", lang)
    for seats, r in results.items():
        heading = line(
            "bench.crypto.seats",
            lang,
            seats=plural("bench.crypto.seat_count", int(seats), lang),
            tiles=plural("bench.crypto.tiles_each", r["hand_size"], lang),
            runs=plural("bench.crypto.runs", r["repeats"], lang),
        )
        print(heading)
        for phase, value in r["phases_cpu_s"].items():
            print(f"  {line(PHASE_WORDS[phase], lang):<18}{value:8.3f} {seconds}")
        print(f"  {line('bench.phase.total', lang):<18}{r['setup_cpu_s']:8.3f} {seconds}")
        calls = ", ".join(f"{n} {c}" for n, c in r["libsodium_calls"].items())
        print("  " + line("bench.crypto.calls", lang, calls=calls))
        bound = line(
            "bench.crypto.lower_bound",
            lang,
            bound=f"{r['libsodium_lower_bound_s']:.3f}",
            ratio=f"{r['setup_over_lower_bound']:.2f}",
        )
        print(f"  {bound}")
        if r["baseline_sra_cpu_s"] is not None:
            baseline = line(
                "bench.crypto.baseline",
                lang,
                modexps=r["baseline_sra_modexps"],
                seconds=f"{r['baseline_sra_cpu_s']:.2f}",
                speedup=f"{r['speedup_over_baseline']:.1f}",
            )
            print(f"  {baseline}")
        print()


def run(
    players: list[int],
    baseline: bool,
    as_json: bool,
    repeats: int,
    sra_prime: int,
    lang: str = "en",
) -> int:
    """The benchmark with its knobs exposed (tests use a tiny SRA prime and one run)."""
    results: dict[str, Any] = {str(n): _measure(n, baseline, repeats, sra_prime) for n in players}
    figures = or_proof_figures(max(repeats, 5))
    if as_json:
        print(json.dumps({**results, "or_proof": figures}, indent=2, sort_keys=True))
    else:
        _print_text(results, lang)
        _print_or_proof(figures, lang)
    return 0


def run_crypto_bench(players: list[int], baseline: bool, as_json: bool, lang: str = "en") -> int:
    """Entry point of `p2p-dominoes bench crypto`; returns the exit status."""
    return run(players, baseline, as_json, repeats=3, sra_prime=RFC3526_GROUP14, lang=lang)
