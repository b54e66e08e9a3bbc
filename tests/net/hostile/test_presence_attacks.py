"""A seated peer's hostile presence messages (PROTOCOL.md §14) crash no one and change nothing:
over real TCP, a bot seat (tests/net/hostile/presence_flooder.py) sends the host and the other
joiner every malformed presence payload and a flood of 500 well-formed ones on each link; the
one-hand match still ends with the same final hash and identical records everywhere, and the
victims name the offence once in their log, without a traceback."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tests.net.hostile.figures import Attacks
from tests.net.lan_peers import (
    Peer,
    check_agreement,
    cli_argv,
    finish_all,
    peers,
    start_host,
    verify_cli,
)

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns", "--ui", "none")


def test_malformed_and_flooding_presence_messages_end_no_match(
    tmp_path: Path, attacks: Attacks
) -> None:
    names = ("host", "joiner", "flooder")
    records = [tmp_path / f"{name}.p2pd" for name in names]
    with peers() as started:
        host = start_host(
            tmp_path,
            started,
            *("--bot", "random", "--players", "3", "--hands", "1", "--record", str(records[0])),
        )
        where = f"127.0.0.1:{host.port()}"
        joiner = Peer(
            "joiner",
            cli_argv(
                "join",
                *("--connect", where, "--name", "joiner", "--bot", "random"),
                *("--record", str(records[1]), *LOOPBACK),
            ),
            tmp_path,
        )
        started.append(joiner)
        flooder = Peer(
            "flooder",
            [
                sys.executable,
                "-m",
                "tests.net.hostile.presence_flooder",
                *("--connect", where, "--name", "flooder", "--bot", "random"),
                *("--record", str(records[2]), *LOOPBACK),
            ],
            tmp_path,
        )
        started.append(flooder)
        finish_all(started, timeout=90)
        final = check_agreement(started, records)

    assert f"head {final[:16]}" in verify_cli(records[0])
    attacked = re.findall(r"flooding: seat (\d) got the presence attack", flooder.stderr)
    # the host's seat and the joiner's: which of seats 1 and 2 the joiner took is a race
    assert "0" in attacked and len(set(attacked)) == 2, flooder.stderr
    for victim in (host, joiner):
        log = victim.stderr
        assert "Traceback" not in log, log
        # Named once a minute per source: every offence came from 127.0.0.1.
        named = re.findall(
            r"stranger at 127\.0\.0\.1:\d+: seat \d('s presence message| floods)", log
        )
        assert len(named) == 1, log
    attacks.tried(
        "presence-flood",
        survived=True,
        detail=f"{len(attacked)} links × (14 malformed + 500 well-formed) presence messages",
    )
