"""Bad input over real sockets, in the middle of a real match, reaches no one and crashes nobody.

Three peers play one hand over TCP on 127.0.0.1: the host and `joiner` are bots, and the third
seat is a person whose lines this test types. The test holds that person's first turn while it
attacks the host and the joiner from outside the table:

- garbage bytes, an oversized length prefix, a well-formed frame carrying a real session message
  from someone who never said hello: each offender is cut off at once and named (by address) on
  the attacked peer's output;
- half a frame, then silence: cut off when the handshake times out (2.5 s), and named;
- a stranger with its own identity key: refused during the handshake as "not seated", named by
  fingerprint; it never gets a session key, so nothing it sends is ever read;
- an impostor who says hello with the host's key but cannot sign for it: cut off at its auth;
- a flood of connections: the listener keeps a few in their handshake (cut off at the timeout)
  and turns the rest away at once; afterwards it still answers (a stranger is refused again).

Then the person plays on, and the hand ends cleanly: every peer exits 0 with the same final
hash, the three records are byte-identical and `verify` finds them clean — the attacks changed
no one's state.
"""

from __future__ import annotations

import os
import re
import select
import socket
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import trio
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from p2p_dominoes.net import (
    AUTH_DOMAIN_INITIATOR,
    TRANSPORT_VERSION,
    Auth,
    Data,
    FrameDecoder,
    HandshakeError,
    Hello,
    RefusedByPeer,
    connect,
    decode_message,
    derive_keys,
    encode_frame,
    encode_message,
    transcript_hash,
)
from p2p_dominoes.net.framing import NONCE_SIZE
from p2p_dominoes.net.lobby import CHANNEL_SESSION
from p2p_dominoes.net.record_layer import Cipher
from p2p_dominoes.session import Identity, default_registry
from p2p_dominoes.store import load_transcript
from tests.net.lan_peers import (
    Peer,
    check_agreement,
    cli_argv,
    finish_all,
    peers,
    start_host,
    verify_cli,
)

LOOPBACK = ("--interface", "127.0.0.1", "--port", "0", "--no-mdns")
LISTENING = re.compile(r"Listening on port (\d+)")
PROMPT = "Choose: "
MENU_KEY = re.compile(r"^\s+([0-9]+|d|p)\) ", re.MULTILINE)
HANDSHAKE_TIMEOUT = 2.5
"""The deadline an inbound stranger has to finish the handshake."""
PER_SOURCE_HANDSHAKES = 4


def _source(n: int) -> tuple[str, int]:
    """A loopback source address of its own for one attack (a stranger is named once a minute
    per source, so each attack comes from its own address to be named in the log)."""
    return (f"127.0.0.{n}", 0)


def _hang_up_time(port: int, data: bytes, *, linger: float = 0.0, source: int = 1) -> float:
    """Connect, send `data`, and return how long the peer took to hang up on us."""
    with socket.create_connection(
        ("127.0.0.1", port), timeout=HANDSHAKE_TIMEOUT + 5, source_address=_source(source)
    ) as sock:
        started = time.monotonic()
        sock.sendall(data)
        time.sleep(linger)
        try:
            while sock.recv(4096):
                pass  # a plaintext bye may come first
        except ConnectionResetError:
            pass
        return time.monotonic() - started


def _stranger_refusal(port: int) -> str:
    """A stranger with its own key dials a seated peer; returns the refusal it was given."""

    async def dial() -> str:
        try:
            async with connect("127.0.0.1", port, Identity.generate(), expect=None) as conn:
                await conn.send(bytes([CHANNEL_SESSION]) + b"\x93\x01\x02\x03")
        except RefusedByPeer as exc:
            return str(exc)
        raise AssertionError("a stranger was let in")

    return trio.run(dial)


def _impostor_hang_up(port: int, claimed: bytes, *, source: int = 1) -> float:
    """Say hello with a seated player's key (not ours), then sign the auth with our own key.

    The hello passes the seated check; the signature cannot. Returns how long the peer took to
    hang up after our auth.
    """
    impostor = Identity.generate()
    ephemeral = X25519PrivateKey.generate()
    mine = encode_message(
        Hello(
            TRANSPORT_VERSION,
            claimed,
            ephemeral.public_key().public_bytes_raw(),
            os.urandom(NONCE_SIZE),
        )
    )
    decoder = FrameDecoder()
    with socket.create_connection(
        ("127.0.0.1", port), timeout=HANDSHAKE_TIMEOUT + 5, source_address=_source(source)
    ) as sock:
        sock.sendall(encode_frame(mine))
        frames: list[bytes] = []
        while len(frames) < 2:  # the responder's hello, then its (encrypted) auth
            chunk = sock.recv(4096)
            assert chunk, "the peer hung up before its hello"
            frames += decoder.feed(chunk)
        theirs = decode_message(frames[0])
        assert isinstance(theirs, Hello)
        th = transcript_hash(mine, frames[0])
        shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(theirs.ephemeral))
        to_responder, _ = derive_keys(shared, th)
        auth = Auth(impostor.sign(AUTH_DOMAIN_INITIATOR + th))
        started = time.monotonic()
        sock.sendall(Cipher(to_responder).seal(encode_message(auth)))
        try:
            while sock.recv(4096):
                pass
        except ConnectionResetError:
            pass
        return time.monotonic() - started


def _flood(port: int, count: int, *, source: int = 1) -> list[float]:
    """Open `count` silent connections at once; how long each lasted before the peer hung up."""
    socks = [
        socket.create_connection(("127.0.0.1", port), timeout=15, source_address=_source(source))
        for _ in range(count)
    ]
    started = time.monotonic()
    lasted: list[float] = []
    open_socks = set(socks)
    try:
        while open_socks and time.monotonic() - started < 15:
            readable, _, _ = select.select(list(open_socks), [], [], 1.0)
            for sock in readable:
                try:
                    if sock.recv(4096):
                        continue
                except ConnectionResetError:
                    pass
                lasted.append(time.monotonic() - started)
                open_socks.discard(sock)
    finally:
        for sock in socks:
            sock.close()
    return lasted


def _refusal_after_flood(port: int) -> str:
    """Like `_stranger_refusal`, once the listener has counted the flood's handshakes out."""
    deadline = time.monotonic() + 3
    while True:
        try:
            return _stranger_refusal(port)
        except HandshakeError:  # turned away: the flood's slots are not all free yet
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def _play_first_choices(person: Peer, answered: int) -> int:
    """Answer every menu shown so far with its first item; returns how many were answered."""
    parts = person.stdout.split(PROMPT)
    while answered < len(parts) - 1:
        keys = MENU_KEY.findall(parts[answered])
        assert keys, parts[answered]
        person.type_line(keys[0])
        answered += 1
    return answered


def test_bad_input_during_a_match_reaches_no_one_and_the_match_ends_cleanly(
    tmp_path: Path,
) -> None:
    records = [tmp_path / f"{name}.p2pd" for name in ("host", "joiner", "person")]
    with peers() as started:
        host = start_host(
            tmp_path,
            started,
            *("--bot", "random", "--players", "3", "--hands", "1"),
            *("--record", str(records[0])),
        )
        host_port = host.port()
        joiner = Peer(
            "joiner",
            cli_argv(
                "join",
                *("--connect", f"127.0.0.1:{host_port}", "--name", "joiner", "--bot", "random"),
                *("--ui", "none", "--record", str(records[1]), *LOOPBACK),
            ),
            tmp_path,
        )
        started.append(joiner)
        person = Peer(
            "person",
            cli_argv(
                "join",
                *("--connect", f"127.0.0.1:{host_port}", "--name", "person"),
                *("--data-dir", str(tmp_path / "person-key"), "--record", str(records[2])),
                *LOOPBACK,
            ),
            tmp_path,
            typed=True,
        )
        started.append(person)
        joiner_port = int(joiner.wait_for(LISTENING).group(1))

        # The match is under way and waits for the person, who takes their time.
        person.wait_for(re.compile(re.escape(PROMPT)), timeout=60)
        played_so_far = load_transcript(records[0], default_registry())
        # A real, signed session message (the smallest, so that it fits a handshake frame).
        real_message = min((e.encoded for e in played_so_far.entries), key=len)
        with ThreadPoolExecutor(max_workers=2) as pool:
            half_frame = pool.submit(
                _hang_up_time, joiner_port, b"\x00\x00\x00\x40half", linger=0, source=2
            )
            garbage = _hang_up_time(host_port, b"\x00\x00\x00\x10this is garbage!", source=3)
            oversized = _hang_up_time(host_port, b"\xff\xff\xff\xff" + b"x" * 64, source=4)
            stranger_frame = _hang_up_time(
                host_port,
                encode_frame(encode_message(Data(bytes([CHANNEL_SESSION]) + real_message))),
                source=5,
            )
            refusals = [_stranger_refusal(joiner_port), _stranger_refusal(host_port)]
            host_key = played_so_far.keys[0]
            impostor = _impostor_hang_up(joiner_port, host_key.raw, source=6)
            flood = pool.submit(_flood, host_port, 40, source=7)
            lasted = flood.result(timeout=30)
            silent = half_frame.result(timeout=30)
        after_flood = _refusal_after_flood(host_port)

        for quick in (garbage, oversized, stranger_frame, impostor):
            assert quick < 2.0
        assert HANDSHAKE_TIMEOUT - 0.5 < silent < HANDSHAKE_TIMEOUT + 3
        assert all("not seated at this table" in r for r in [*refusals, after_flood]), refusals
        held = [t for t in lasted if t > HANDSHAKE_TIMEOUT - 0.5]
        assert len(lasted) == 40 and 0 < len(held) <= PER_SOURCE_HANDSHAKES, lasted
        assert all(t < 1.0 for t in lasted if t not in held), lasted  # the rest at once

        # The person plays on (first item of each menu) until the hand is over.
        answered = 0
        deadline = time.monotonic() + 90
        while person.process.poll() is None and time.monotonic() < deadline:
            answered = _play_first_choices(person, answered)
            time.sleep(0.02)
        finish_all(started, timeout=30)
        final = check_agreement(started, records)

    assert answered >= 1
    line = verify_cli(records[0])
    assert f"head {final[:16]}" in line
    # Every offender was named on the attacked peer's output.
    host_log, joiner_log = host.stderr, joiner.stderr
    assert "frame length 4294967295 is outside" in host_log, host_log
    assert "expected hello, got data" in host_log, host_log
    assert "malformed handshake" in host_log, host_log
    assert "handshake timed out" in joiner_log, joiner_log
    # Named once a minute per source: the two refusals on the host came from 127.0.0.1.
    assert log_names(host_log, "not seated at this table") == 1, host_log
    assert log_names(joiner_log, "not seated at this table") == 1, joiner_log
    assert f"bad handshake signature from {host_key.fingerprint}" in joiner_log, joiner_log
    # The flood's 40 connections (most turned away, the rest timed out) name their source once
    # between the listener and the connections, not 40 times.
    assert len(re.findall(r"stranger at 127\.0\.0\.7:", host_log)) == 1, host_log
    for log in (host_log, joiner_log):
        assert "Traceback" not in log, log
        assert re.search(r"stranger at 127\.0\.0\.\d+:\d+: refused inbound connection", log), log


def log_names(log: str, reason: str) -> int:
    """How many log lines refuse a fingerprint (XXXX-XXXX-…) for `reason`."""
    return len(re.findall(r"[A-Z2-7]{4}(?:-[A-Z2-7]{4}){7} refused: " + re.escape(reason), log))
