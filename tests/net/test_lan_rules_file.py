"""A table with a custom rules file between real OS processes over TCP on 127.0.0.1.

The host reads `--rules FILE` (a preset with switches changed); each joiner is shown the preset
it starts from and every changed switch before it sits down, signs a genesis with exactly those
rules, and the match (two hands) ends with byte-identical records that `verify` finds clean.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.net.lan_peers import play_on_loopback, verify_cli

KITCHEN = {
    "base": "house",
    "name": "kitchen",
    "two_doubles": True,
    "draw_limit": 2,
    "extra_turn_sum": 10,
    "forced_draw_sum": 5,
}


def test_joiners_see_and_play_the_hosts_rules_file(tmp_path: Path) -> None:
    rules = tmp_path / "kitchen.json"
    rules.write_text(json.dumps(KITCHEN), encoding="utf-8")
    table = play_on_loopback(tmp_path, 3, "--rules", str(rules), "--hands", "2")
    records, final, started, host = table.records, table.final, table.peers, table.host
    line = verify_cli(records[0])
    assert "clean" in line and f"head {final[:16]}" in line, line
    shown = [
        "Table 'host's table' (kitchen, 2 hands): ",
        "  Rules 'kitchen', based on: Dominoes (the default game):",
        "  When you cannot play: up to 2 tiles, then pass",
        "  Two doubles in one turn: on",
        "  Extra turn when the ends total: 10",
        "  Draw two when the ends total: 5",
    ]
    for joiner in started[1:]:
        assert all(line in joiner.stdout for line in shown), joiner
    assert "(kitchen, 3 seats)" in host.stdout, host
