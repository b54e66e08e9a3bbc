"""Transcript files on disk: atomic 0600 saves that reload byte for byte, tampering caught."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from p2p_dominoes.session import (
    Genesis,
    Identity,
    InvalidMessage,
    MessageRegistry,
    MessageType,
    SeatInfo,
    Text,
    Transcript,
    check_setup_message,
    default_registry,
    new_table_nonce,
    record,
    seat_commitment,
    sign_genesis,
)
from p2p_dominoes.store import load_transcript, save_transcript

CHAT = MessageType(100, "test_chat", record(("text", Text(100))))


class Table:
    """A set-up table of ``n`` seats, each with a fresh identity, as a host would create it."""

    def __init__(self, n: int) -> None:
        self.ids = [Identity.generate() for _ in range(n)]
        nonces = [new_table_nonce() for _ in range(n)]
        seats = [
            SeatInfo(f"P{i}", k.public, seat_commitment(k.public, nonces[i]))
            for i, k in enumerate(self.ids)
        ]
        genesis = Genesis.new(("draw",), seats)
        self.registry: MessageRegistry = default_registry().extended(CHAT)
        self.transcript = Transcript(genesis.sign(self.ids[0], 0), self.registry)
        for seat, identity in enumerate(self.ids):
            signature = sign_genesis(self.transcript, identity, seat, nonces[seat])
            self.transcript.append(signature, check_setup_message)

    def say(self, seat: int, text: str) -> None:
        self.transcript.append(self.transcript.sign_next(self.ids[seat], seat, CHAT, (text,)))


def make_table(n: int) -> Table:
    return Table(n)


def test_save_and_load(tmp_path: Path) -> None:
    table = make_table(4)
    table.say(3, "last")
    path = tmp_path / "table.p2pd"
    save_transcript(path, table.transcript)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    loaded = load_transcript(path, table.registry, check_setup_message)
    assert loaded.to_bytes() == table.transcript.to_bytes() == path.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["table.p2pd"]


def test_save_replaces_atomically(tmp_path: Path) -> None:
    table = make_table(2)
    path = tmp_path / "table.p2pd"
    save_transcript(path, table.transcript)
    table.say(1, "hello")
    save_transcript(path, table.transcript)
    assert load_transcript(path, table.registry).head == table.transcript.head


def test_a_save_clears_what_a_killed_writer_left(tmp_path: Path) -> None:
    """A writer killed between its temp file and the rename leaves `.NAME.tmp-…`; the next
    save of that record removes it, and nothing else beside it."""
    table = make_table(2)
    path = tmp_path / "table.p2pd"
    (tmp_path / ".table.p2pd.tmp-0123456789abcdef").write_bytes(b"half a record")
    (tmp_path / ".other.p2pd.tmp-0123456789abcdef").write_bytes(b"not ours")
    (tmp_path / ".table.p2pd.tmp-notours").write_bytes(b"not our pattern")
    save_transcript(path, table.transcript)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".other.p2pd.tmp-0123456789abcdef",
        ".table.p2pd.tmp-notours",
        "table.p2pd",
    ]


def test_tampered_file_names_the_message(tmp_path: Path) -> None:
    table = make_table(2)
    table.say(1, "original")
    path = tmp_path / "table.p2pd"
    save_transcript(path, table.transcript)
    path.write_bytes(path.read_bytes().replace(b"original", b"0riginal"))
    with pytest.raises(InvalidMessage) as caught:
        load_transcript(path, table.registry)
    assert caught.value.index == 3 and caught.value.code == "bad-signature"
