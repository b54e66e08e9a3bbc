"""kill -9 between sitting down and the `genesis_sign`: the resumed peer reveals the nonce its
genesis seat committed to, and every screen shows the same table code.

Three real processes on 127.0.0.1. The first joiner (seat 1) is frozen (SIGSTOP) once it has its
seat, so the second joiner (seat 2) sits down — its log holds the genesis, its nonce is on disk —
but cannot sign yet: seat 1 signs before it. Seat 2 is killed there, seat 1 is thawed, seat 2 is
resumed. Had the nonce been lost, seat 2 could not open its commitment and the table would stop
(`bad-nonce`, or a stall); instead the match completes, the records agree and verify, and the
host, seat 1 and the resumed seat 2 print the same "Table code".
"""

from __future__ import annotations

import re
import stat
from pathlib import Path

from tests.chaos.peers import Table, check_completed, sender, wait_until

CODE = re.compile(r"^Table code: (.+)$", re.MULTILINE)


def test_a_peer_killed_before_its_genesis_sign_resumes_with_the_same_nonce(
    tmp_path: Path,
) -> None:
    table = Table(tmp_path, 3, 1, ["127.0.0.1"] * 3, host_args=("--stall-timeout", "30"))
    host, first, second = table.peers
    with table:
        host.host(3, 1, "--stall-timeout", "30")
        assert wait_until(lambda: host.port() is not None, 20), host.all_output()
        port = host.port()
        assert port is not None
        first.join("127.0.0.1", port)
        assert wait_until(lambda: "took a seat (2 of" in host.output(), 20), table.outputs()
        first.freeze()  # seat 1 will not sign the genesis until thawed
        second.join("127.0.0.1", port)
        assert wait_until(lambda: second.log() is not None, 20), table.outputs()
        view = second.log()
        assert view is not None and view.seat == 2
        assert all(sender(message) != 2 for message in view.messages[1:])  # nothing signed yet
        # The host, frozen while j2 restarts, cannot free j2's seat meanwhile: on a loaded
        # machine a restart can outlast SETUP_LOST_GRACE (a loaded run lost the seat so, and the
        # resumed j2 rightly said that the table never started).
        host.freeze()
        second.kill()
        directory = second.table_dir()
        assert directory is not None
        nonce_file = directory / "table.nonce"
        assert stat.S_IMODE(nonce_file.stat().st_mode) == 0o600
        first.thaw()
        second.resume()
        assert wait_until(lambda: "Seated at seat 3" in second.output(), 60), table.outputs()
        host.thaw()
        outcome = check_completed(table, None, 120)
    assert not outcome.lost
    codes = {
        "host": CODE.findall(host.output()),
        "seat 1": CODE.findall(first.output()),
        "seat 2 before the kill": CODE.findall(second.output(0)),
        "seat 2 resumed": CODE.findall(second.output(1)),
    }
    assert codes["seat 2 before the kill"] == [], codes  # not every seat had signed yet
    shown = {code for key, found in codes.items() if found for code in found}
    assert len(shown) == 1 and all(len(codes[k]) == 1 for k in codes if "before" not in k), codes
