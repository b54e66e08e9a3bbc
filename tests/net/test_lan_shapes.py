"""Trains between real OS processes over TCP on 127.0.0.1: a host and two joiners play a
two-hand match of the `trains` preset; every peer derives the same trains and markers from the
signed plays, the records are byte-identical and `verify` finds them clean."""

from __future__ import annotations

from pathlib import Path

from tests.net.lan_peers import play_on_loopback, verify_cli


def test_a_trains_table_plays_over_the_lan(tmp_path: Path) -> None:
    table = play_on_loopback(tmp_path, 3, "--rules", "trains", "--hands", "2")
    line = verify_cli(table.records[0])
    assert "clean" in line and f"head {table.final[:16]}" in line, line
    assert "(trains, 3 seats)" in table.host.stdout, table.host
