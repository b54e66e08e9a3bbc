"""Discovery against a hostile LAN: real `host`, `tables`, `join TABLE` and a browsing
`play --no-browser` in network namespaces, while an attacker namespace sends spoofed mDNS.

Network hygiene: every process runs inside namespaces made here (`tests/net/netns.py`), pinned
to its namespace's address with `--interface`; the attacker (`tests/net/mdns_attacker.py`)
refuses to run anywhere else. The pytest process never starts zeroconf.

Attacks: instance names that are ours except for letter case, over-long or with control
characters; answering the host's probe with a conflicting record; spoofed goodbyes, tampered
and replayed TXT records for the real table; a flood of hundreds of fake tables (signed by
fresh keys, unsigned, and claiming the real host's fingerprint). Each test checks that every
victim is still running, that the real table is listed and the fakes are not (or are capped),
and that an honest `join TABLE` then plays a hand that verifies.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from tests.net.hostile.figures import Attacks
from tests.net.lan_peers import Peer, check_agreement, cli_argv, finish_all, peers, verify_cli
from tests.net.netns import (
    HOST_NETNS_ENV,
    REPO_ROOT,
    Lan,
    bridged_lan,
    isolated_env,
    namespace_support,
    netns_id,
    python_argv,
)

pytestmark = [
    pytest.mark.netns,
    pytest.mark.slow,
    pytest.mark.skipif(namespace_support() is not None, reason=str(namespace_support())),
]

TABLE = "Kitchen"
HOST, ATTACKER, JOINER, BROWSER, WATCHER = 0, 1, 2, 3, 4
ADVERTISED = re.compile(r"Advertised on the local network \(mDNS\)")
RUNNING = re.compile(r"p2p-dominoes is running for")
MAX_LISTED = 32


def _host(lan: Lan, tmp_path: Path, record: Path) -> Peer:
    return Peer(
        "host",
        lan.exec_argv(
            HOST,
            cli_argv(
                "host",
                *("--name", "Ann", "--table", TABLE, "--players", "2", "--hands", "1"),
                *("--bot", "random", "--ui", "none", "--record", str(record)),
                *("--interface", lan.v4[HOST]),
            ),
        ),
        tmp_path,
    )


def _joiner(lan: Lan, tmp_path: Path, record: Path, table: str) -> Peer:
    return Peer(
        "joiner",
        lan.exec_argv(
            JOINER,
            cli_argv(
                "join",
                table,
                *("--name", "Bob", "--bot", "random", "--ui", "none"),
                *("--record", str(record), "--interface", lan.v4[JOINER]),
            ),
        ),
        tmp_path,
    )


def _browser(lan: Lan, tmp_path: Path) -> Peer:
    """A browsing `play` peer: its lobby lists the tables (the page is never opened)."""
    return Peer(
        "play",
        lan.exec_argv(
            BROWSER,
            cli_argv(
                "play",
                *("--no-browser", "--name", "Pat", "--interface", lan.v4[BROWSER]),
                *("--data-dir", str(tmp_path / "pat")),
            ),
        ),
        tmp_path,
    )


def _attacker(lan: Lan, *modes: str, duration: float, fakes: int = 300) -> subprocess.Popen[str]:
    argv = ["--address", lan.v4[ATTACKER], "--duration", str(duration), "--fakes", str(fakes)]
    for mode in modes:
        argv += ["--mode", mode]
    return subprocess.Popen(
        lan.exec_argv(ATTACKER, python_argv("tests.net.mdns_attacker", *argv)),
        cwd=REPO_ROOT,
        env=isolated_env(),
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _counts(attacker: subprocess.Popen[str]) -> dict[str, Any]:
    out, err = attacker.communicate(timeout=120)
    assert attacker.returncode == 0 and out, f"attacker failed ({attacker.returncode}): {err}"
    counts: dict[str, Any] = json.loads(out)
    return counts


def _tables(lan: Lan, timeout: float = 4.0) -> list[dict[str, Any]]:
    """`p2p-dominoes tables --json` on the joiner's "laptop"; it must exit 0."""
    result = subprocess.run(
        lan.exec_argv(
            JOINER,
            cli_argv("tables", "--json", "--timeout", str(timeout), "--interface", lan.v4[JOINER]),
        ),
        capture_output=True,
        text=True,
        timeout=90,
        cwd=REPO_ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows


def _alive(*victims: Peer) -> None:
    for victim in victims:
        assert victim.process.poll() is None, f"{victim.name} died\n{victim}"
        assert "Traceback" not in victim.stderr, str(victim)


def _real(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rows if r["table"] == TABLE and r["host"] == "Ann"]


def _play_a_hand(lan: Lan, tmp_path: Path, host: Peer, started: list[Peer], table: str) -> str:
    records = [tmp_path / "seat0.p2pd", tmp_path / "seat1.p2pd"]
    joiner = _joiner(lan, tmp_path, records[1], table)
    started.append(joiner)
    finish_all([host, joiner], timeout=120)
    final = check_agreement([host, joiner], records)
    verify_cli(records[0])
    return final


def test_spoofed_names_and_probe_conflicts_kill_nobody(tmp_path: Path, attacks: Attacks) -> None:
    with bridged_lan(4, prefix="p2pdmn1") as lan, peers() as started:
        attacker = _attacker(lan, "names", "probe", duration=60)
        time.sleep(1.0)
        browser = _browser(lan, tmp_path)
        started.append(browser)
        browser.wait_for(RUNNING, timeout=30)
        host = _host(lan, tmp_path, tmp_path / "seat0.p2pd")
        started.append(host)
        host.port()
        host.wait_for(ADVERTISED, timeout=60)  # renamed after the conflicts, and advertised
        time.sleep(2.0)
        rows = _tables(lan)
        _alive(browser, host)
        real = _real(rows)
        assert len(real) == 1 and real[0]["phase"] == "lobby", rows
        assert len(rows) == 1, rows  # none of the spoofed names is listed
        _play_a_hand(lan, tmp_path, host, started, TABLE)
        _alive(browser)
        attacker.terminate()
        counts = _counts(attacker)
    renamed = "another responder claims the mDNS name" in host.stderr
    assert renamed, host.stderr  # the probes were answered, and the host went on
    detail = "browsing `play`, `tables` and `join Kitchen` survived; the table was listed once"
    attacks.tried("mdns-case-variant-names", survived=True, detail=detail)
    attacks.tried("mdns-overlong-and-control-names", survived=True, detail=detail)
    attacks.tried(
        "mdns-probe-conflict",
        survived=True,
        detail=f"{counts['probe']} probes answered; the host renamed and was advertised",
    )


def _watcher(lan: Lan, tmp_path: Path) -> Peer:
    """A long-running lobby (`tests/net/lobby_watcher.py`) that prints what it lists."""
    return Peer(
        "watcher",
        lan.exec_argv(
            WATCHER,
            python_argv(
                "tests.net.lobby_watcher", "--interface", lan.v4[WATCHER], "--duration", "300"
            ),
        ),
        tmp_path,
    )


def _watched(watcher: Peer) -> list[dict[str, Any]]:
    lines = watcher.stdout.splitlines()
    return [json.loads(line) for line in lines[:-1]]  # the last line may be half written


def _lists_ann(line: dict[str, Any]) -> bool:
    return bool(_ann(line))


def _ann(line: dict[str, Any]) -> list[tuple[str, int]]:
    """(phase, seq) of every listed table that is Ann's Kitchen."""
    return [(p, q) for name, host, _, p, q in line["tables"] if name == TABLE and host == "Ann"]


def test_goodbyes_tampering_and_a_fake_table_flood_hide_nothing(
    tmp_path: Path, attacks: Attacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HOST_NETNS_ENV, netns_id())  # the watcher checks it runs elsewhere
    with bridged_lan(5, prefix="p2pdmn2") as lan, peers() as started:
        host = _host(lan, tmp_path, tmp_path / "seat0.p2pd")
        started.append(host)
        host.port()
        host.wait_for(ADVERTISED, timeout=60)
        browser = _browser(lan, tmp_path)
        watcher = _watcher(lan, tmp_path)
        started += [browser, watcher]
        browser.wait_for(RUNNING, timeout=30)
        deadline = time.monotonic() + 30
        while not any(_lists_ann(line) for line in _watched(watcher)):
            assert time.monotonic() < deadline, str(watcher)
            time.sleep(0.2)
        attacker = _attacker(lan, "goodbye", "tamper", "flood", duration=150, fakes=300)
        time.sleep(8.0)  # the attacker has learnt the real records and sent goodbyes
        listings = [_tables(lan) for _ in range(2)]
        _alive(host, browser, watcher)
        for rows in listings:
            real = _real(rows)
            assert len(real) == 1, [r["table"] for r in rows]
            assert real[0]["phase"] == "lobby" and real[0]["seats"] == "1/2", real
            assert len(rows) <= MAX_LISTED, len(rows)
            # Unsigned fakes and fakes claiming Ann's fingerprint are never shown.
            assert not [r for r in rows if r["table"].startswith(("Unsigned", "Kitchen "))]
            fingerprints = [r["fingerprint"] for r in rows]
            assert fingerprints.count(real[0]["fingerprint"]) == 1
        seen = _watched(watcher)
        first = next(i for i, line in enumerate(seen) if _lists_ann(line))
        gaps = [line["t"] for line in seen[first:] if not _lists_ann(line)]
        assert not gaps, f"the real table vanished from a running lobby at {gaps}"
        assert max(len(line["tables"]) for line in seen) <= MAX_LISTED
        kept = max(line["kept"] for line in seen)
        assert 1 < kept <= 1 + 8, kept  # the flood arrived; 8 kept per address (ad_cache)
        final = _play_a_hand(lan, tmp_path, host, started, TABLE)  # under attack
        closed_at = len(_watched(watcher))
        deadline = time.monotonic() + 20
        while _lists_ann(_watched(watcher)[-1]) or len(_watched(watcher)) <= closed_at:
            assert time.monotonic() < deadline, "the host's signed close was not seen"
            time.sleep(0.2)
        close_s = (len(_watched(watcher)) - closed_at) * 0.5
        gone_at = len(_watched(watcher))
        time.sleep(4.0)  # the attacker goes on replaying the table's older signed records
        assert not [line for line in _watched(watcher)[gone_at:] if _lists_ann(line)]
        _alive(browser, watcher)
        attacker.terminate()
        counts = _counts(attacker)
        assert counts["goodbye"] > 5 and counts["flood"] > 5 and counts["learnt_fingerprint"]
        seen = _watched(watcher)
    shown = [entry for line in seen for entry in _ann(line)]
    sequence = [q for _, q in shown]
    assert sequence == sorted(sequence), "an older record of the table was believed"
    phases = [p for p, _ in shown]
    assert "playing" in phases and "lobby" not in phases[phases.index("playing") :]
    assert counts["replay"] > 0  # older signed records were replayed after the update
    listed = max(len(rows) for rows in listings)
    watched = max(len(line["tables"]) for line in seen)
    push = max(line["push_bytes"] for line in seen)
    attacks.figure("mdns_flood_tables_listed", f"{max(listed, watched)} (cap {MAX_LISTED})")
    attacks.figure(
        "mdns_flood_tables_kept", f"{max(line['kept'] for line in seen)} (cap 8 per address)"
    )
    attacks.figure("mdns_flood_largest_lobby_push_bytes", push)
    attacks.figure("mdns_signed_close_seen_within_s", close_s)
    attacks.tried(
        "mdns-spoofed-goodbye",
        survived=True,
        detail=(
            f"{counts['goodbye']} goodbye bursts; the real table never left a running lobby "
            f"({len(seen) - first} half-second samples)"
        ),
    )
    attacks.tried(
        "mdns-tampered-and-replayed-txt",
        survived=True,
        detail=(
            f"{counts['tamper']} bursts, {counts['replay']} replays of older signed records: "
            f"the running lobby went lobby → playing only, its seq never went back"
        ),
    )
    attacks.tried(
        "mdns-fake-claiming-host-fingerprint",
        survived=True,
        detail="100 fakes with Ann's fp and table id (own key, or Ann's pk and sig): none shown",
    )
    attacks.tried(
        "mdns-fake-table-flood",
        survived=True,
        detail=(
            f"300 fakes x {counts['flood']} bursts ({counts['packets']} packets): "
            f"at most {max(listed, watched)} rows listed, {push} bytes per lobby push, none "
            f"unsigned or claiming the host's fingerprint; join Kitchen played, "
            f"final {final[:12]}"
        ),
    )


def _named_watcher(lan: Lan, tmp_path: Path, name: str, where: int) -> Peer:
    """A lobby watcher (see :func:`_watcher`) with its own output files, in namespace ``where``."""
    return Peer(
        name,
        lan.exec_argv(
            where,
            python_argv(
                "tests.net.lobby_watcher", "--interface", lan.v4[where], "--duration", "300"
            ),
        ),
        tmp_path,
    )


def _await_line(watcher: Peer, check: Any, timeout: float, since: int = 0) -> dict[str, Any]:
    """The first line the watcher printed (from line ``since`` on) that ``check`` accepts."""
    deadline = time.monotonic() + timeout
    while True:
        for line in _watched(watcher)[since:]:
            if check(line):
                return line
        assert time.monotonic() < deadline, str(watcher)
        time.sleep(0.2)


def test_a_thousand_signed_namesakes_and_spoofed_address_records_hide_nothing(
    tmp_path: Path, attacks: Attacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One address: 1,000 fake "Kitchen" tables, each validly signed by a fresh key, plus
    cache-flush A records saying the real host's name is at the attacker's address."""
    monkeypatch.setenv(HOST_NETNS_ENV, netns_id())  # the watchers check they run elsewhere
    per_source = 8  # p2p_dominoes.net.ad_cache.MAX_ADS_PER_SOURCE
    with bridged_lan(5, prefix="p2pdfl3") as lan, peers() as started:
        host = _host(lan, tmp_path, tmp_path / "seat0.p2pd")
        started.append(host)
        host.port()
        host.wait_for(ADVERTISED, timeout=60)
        early = _named_watcher(lan, tmp_path, "early", WATCHER)  # a lobby open before the flood
        started.append(early)
        _await_line(early, _lists_ann, timeout=30)
        attacker = _attacker(lan, "namesakes", "spoof-address", duration=240, fakes=1000)
        flooded = _await_line(early, lambda line: line["kept"] > per_source, timeout=60)
        late = _named_watcher(lan, tmp_path, "late", BROWSER)  # a lobby opened in the flood
        started.append(late)
        listed = _await_line(late, _lists_ann, timeout=30)
        rows = _tables(lan)
        _alive(host, early, late)
        real = _real(rows)
        assert len(real) == 1 and real[0]["phase"] == "lobby", rows
        assert real[0]["addresses"] == [lan.v4[HOST]], real  # its signed address
        namesakes = [r for r in rows if r["table"] == TABLE and r["host"] != "Ann"]
        assert 0 < len(namesakes) <= per_source, len(namesakes)
        # `join Kitchen` in the flood: one line naming every candidate by short fingerprint.
        short = real[0]["fingerprint"][:9]
        joined = subprocess.run(
            lan.exec_argv(
                JOINER,
                cli_argv(
                    "join", TABLE, "--name", "Bob", "--ui", "none",
                    *("--interface", lan.v4[JOINER], "--data-dir", str(tmp_path / "bob0")),
                ),
            ),
            capture_output=True, text=True, timeout=90, cwd=REPO_ROOT, check=False,
        )  # fmt: skip
        assert joined.returncode == 2, joined.stdout + joined.stderr
        said = joined.stderr.strip().splitlines()[-1]  # (lines before: the log's warnings)
        assert said.startswith("p2p-dominoes join: several tables match “Kitchen”: "), said
        assert f"“Kitchen” ({short})" in said and "join FINGERPRINT" in said, said
        assert said.index(short) < said.index("), "), said  # the lone one at its address first
        seen = _watched(early)  # until the hand starts (the host then says "playing")
        first = next(i for i, line in enumerate(seen) if _lists_ann(line))
        gaps = [line["t"] for line in seen[first:] if not _lists_ann(line)]
        assert not gaps, f"the real table vanished from a lobby open before the flood at {gaps}"
        ann = real[0]["fingerprint"]
        doubting = [line["t"] for line in seen[first:] if ann in line["doubtful"]]
        assert not doubting, f"the early lobby stopped believing the real table at {doubting}"
        assert seen[-1]["t"] > flooded["t"]
        final = _play_a_hand(lan, tmp_path, host, started, short)  # `join FINGERPRINT` plays
        _alive(early, late)
        attacker.terminate()
        counts = _counts(attacker)
        assert counts["namesakes"] > 5 and counts["namesakes_named"] == TABLE, counts
        assert counts["spoof-address"] > 5, counts
    kept = max(line["kept"] for line in seen + _watched(late))
    late_lines = [line for line in _watched(late) if _lists_ann(line)]
    doubted = sum(ann in line["doubtful"] for line in late_lines)
    attacks.figure("mdns_namesakes_sent_per_burst", 1000)
    attacks.figure("mdns_namesakes_kept_by_a_lobby", f"{kept - 1} (cap {per_source} per address)")
    attacks.figure("mdns_namesakes_real_table_listed_after_s", listed["t"])
    attacks.figure(
        "mdns_namesakes_real_table_unconfirmed_in_a_new_lobby",
        f"{doubted} of {len(late_lines)} samples (where the spoofed address records won)",
    )
    attacks.tried(
        "mdns-namesake-flood-and-spoofed-address",
        survived=True,
        detail=(
            f"1,000 signed 'Kitchen' fakes x {counts['namesakes']} bursts from one address and "
            f"{counts['spoof-address']} bursts of spoofed A and SRV records: a lobby open "
            f"before kept the real table listed; a lobby opened in the flood listed it "
            f"after {listed['t']} s; "
            f"`tables` listed it with {len(namesakes)} namesakes; `join Kitchen` named "
            f"{short} among them; `join {short}` played, final {final[:12]}"
        ),
    )
