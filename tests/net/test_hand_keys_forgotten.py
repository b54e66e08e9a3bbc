"""Real processes forget their per-hand key files: gone once the hand is audited and the table
is over (the files would reveal a seat's tiles together with the transcript)."""

from __future__ import annotations

from pathlib import Path

from tests.net.lan_peers import Peer, check_agreement, cli_argv, finish_all, peers, start_host

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none")


def test_no_hand_key_file_is_left_after_a_finished_table(tmp_path: Path) -> None:
    records = [tmp_path / f"seat{k}.p2pd" for k in range(2)]
    data = [tmp_path / f"data{k}" for k in range(2)]
    with peers() as started:
        host = start_host(
            tmp_path,
            started,
            *("--bot", "random", "--players", "2", "--hands", "2"),
            *("--data-dir", str(data[0]), "--record", str(records[0])),
        )
        port = host.port()
        started.append(
            Peer(
                "joiner",
                cli_argv(
                    "join",
                    *("--connect", f"127.0.0.1:{port}", "--name", "joiner", "--bot", "random"),
                    *("--data-dir", str(data[1]), "--record", str(records[1]), *LOOPBACK),
                ),
                tmp_path,
            )
        )
        finish_all(started, timeout=120)
        check_agreement(started, records)
    for directory in data:
        logs = list(directory.glob("tables/*/table.log"))
        assert len(logs) == 1, list(directory.rglob("*"))  # the table was kept here
        assert list(directory.rglob("hand-*.key")) == []
