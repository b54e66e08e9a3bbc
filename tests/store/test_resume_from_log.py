"""The contract a resuming peer relies on, shown with in-process tables (no sockets).

Each peer logs what its session accepted before anything it produced leaves (``TableLog.sync``
before sending) and draws its hand keys through ``HandSecrets.keys_for``. One peer crashes at
some point of the hand (what it had not sent is lost, and maybe its last record is torn); it is
rebuilt from its log alone by replaying every message with ``TableSession.admit`` (which signs
nothing), then ``start()`` sends whatever is due, and the table's catch-up brings the rest. The
hand completes with one transcript everywhere, and each peer's log verifies.

``TableSession`` has no hand-keys hook yet, so this test routes ``mental.new_hand_keys``
through the store; the runtime needs that hook (see the store report).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from p2p_dominoes import mental
from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import PRESETS
from p2p_dominoes.mental import HandContext, HandKeys, RandomSource
from p2p_dominoes.session import (
    Envelope,
    Identity,
    Phase,
    TableSession,
    Transcript,
    default_registry,
    new_table_nonce,
    transcript_table_code,
)
from p2p_dominoes.session.events import Update
from p2p_dominoes.session.local import LocalTable
from p2p_dominoes.session.verify import verify_transcript
from p2p_dominoes.store import HandSecrets, TableLog, TableNonceFile, read_log, table_dir

PLAYERS = 3
LONG_DRAW = dataclasses.replace(PRESETS["draw"], targets=((2, 1000), (3, 1000), (4, 1000)))
"""`draw` with a target no hand reaches: one hand can score 61, which would end the match
before the hand a test crashes in."""
VICTIM = 1


class Peers:
    """A local table whose peers each keep a table log and hand secrets under ``data``."""

    def __init__(
        self, data: Path, crash_at: int, tear: bool, hands: int = 1, crash_hand: int = 1
    ) -> None:
        self.ids = [Identity.generate() for _ in range(PLAYERS)]
        nonces = [new_table_nonce() for _ in range(PLAYERS)]
        self.table = LocalTable.create(
            LONG_DRAW,
            [f"p{s}" for s in range(PLAYERS)],
            [random_bot] * PLAYERS,
            seed=crash_at,
            max_hands=hands,
            identities=self.ids,
            nonces=nonces,
        )
        genesis = self.table.sessions[0].transcript
        self.dirs = [table_dir(data / f"peer{s}", genesis.table_id) for s in range(PLAYERS)]
        for seat, directory in enumerate(self.dirs):  # as `sit_down` does, before the log
            TableNonceFile(directory).save(genesis.table_id, seat, nonces[seat])
        self.secrets = [HandSecrets(d) for d in self.dirs]
        self.logs = [
            TableLog.create(d, genesis.table_id, s, genesis[0].encoded, max_hands=hands)
            for s, d in enumerate(self.dirs)
        ]
        self.crash_at, self.tear, self.calls, self.crashed = crash_at, tear, 0, False
        self.crash_hand = crash_hand
        self.files_at_crash: list[int] = []
        self._send = self.table._broadcast
        self.table._broadcast = self._log_then_send  # type: ignore[method-assign]

    def keys_for(self, ctx: HandContext, seat: int, rng: RandomSource) -> HandKeys:
        return self.secrets[seat].keys_for(ctx, seat, rng)

    def _log_then_send(self, sender: int, update: Update) -> None:
        self.logs[sender].sync(self.table.sessions[sender].transcript)
        self.secrets[sender].forget_audited(update.events)  # as the runtime does, after the sync
        hand = self.table.sessions[sender].hand
        in_hand = hand is not None and hand.number == self.crash_hand
        if sender == VICTIM and not self.crashed and in_hand:
            self.calls += 1
            if self.calls == self.crash_at:
                self._crash()
                return  # what it produced never left
        self._send(sender, update)

    def _crash(self) -> None:
        self.crashed = True
        self.files_at_crash = self.secrets[VICTIM].stored_hands()
        self.tear = self.tear and self.logs[VICTIM].messages > 1  # the genesis is never torn
        self.logs[VICTIM].close()
        self.table.queue = type(self.table.queue)(
            item for item in self.table.queue if item[1] != VICTIM
        )
        if self.tear:  # the crash came during the last append
            path = self.dirs[VICTIM] / "table.log"
            path.write_bytes(path.read_bytes()[:-3])
        self._resume()

    def _resume(self) -> None:
        log, messages, dropped = TableLog.open(self.dirs[VICTIM])
        assert (dropped > 0) == self.tear  # the torn record, less the 3 bytes cut, is dropped
        registry = default_registry()
        transcript = Transcript(Envelope.decode(messages[0], registry), registry)
        nonce = TableNonceFile(self.dirs[VICTIM]).load(transcript.table_id, VICTIM)
        secrets = self.secrets[VICTIM] = HandSecrets(self.dirs[VICTIM])  # a fresh process
        envelopes = [Envelope.decode(data, registry) for data in messages[1:]]
        secrets.learn_published(envelopes, VICTIM)  # as `resume` does: audited hands' keys
        session = TableSession(transcript, VICTIM, self.ids[VICTIM], table_nonce=nonce)
        for envelope in envelopes:
            session.admit(envelope)
        self.logs[VICTIM] = log
        self.table.sessions[VICTIM] = session
        self._log_then_send(VICTIM, session.start())

    def close(self) -> None:
        for log in self.logs:
            log.close()


@pytest.fixture
def keys_through_the_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Peers]]:
    made: list[Peers] = []

    def new_hand_keys(ctx: HandContext, seat: int, rng: RandomSource) -> HandKeys:
        return made[-1].keys_for(ctx, seat, rng)

    monkeypatch.setattr(mental, "new_hand_keys", new_hand_keys)
    yield made
    for peers in made:
        peers.close()


@pytest.mark.parametrize("tear", [False, True], ids=["clean-crash", "torn-append"])
@pytest.mark.parametrize("crash_at", [1, 2, 3, 4, 6, 9, 14, 20, 27])
def test_a_peer_rebuilt_from_its_log_finishes_the_hand_with_the_others(
    tmp_path: Path, keys_through_the_store: list[Peers], crash_at: int, tear: bool
) -> None:
    peers = Peers(tmp_path, crash_at, tear)
    keys_through_the_store.append(peers)
    peers.table.run()
    assert peers.crashed
    sessions = peers.table.sessions
    assert all(s.phase is Phase.OVER for s in sessions), [s.phase for s in sessions]
    assert len({s.transcript.head for s in sessions}) == 1
    record = tuple(e.encoded for e in sessions[0].transcript.entries)
    logs = [read_log(directory) for directory in peers.dirs]
    assert all(contents.messages == record for contents in logs)  # every log, the same bytes
    assert verify_transcript(logs[VICTIM].transcript_bytes()).ok
    codes = {s.table_code for s in sessions}  # the victim revealed the nonce it committed to
    assert len(codes) == 1 and None not in codes
    assert transcript_table_code(sessions[VICTIM].transcript) in codes
    assert peers.files_at_crash == [1]  # mid-hand the key is on disk, and resume used it
    assert all(s.stored_hands() == [] for s in peers.secrets)  # audited: every key file gone


@pytest.mark.parametrize("crash_at", [1, 3, 6, 12])
def test_a_peer_resumed_after_an_audited_hand_replays_it_without_its_key_file(
    tmp_path: Path, keys_through_the_store: list[Peers], crash_at: int
) -> None:
    # Hand 1's key file is gone once hand 1 is audited; a crash in hand 2 must still replay
    # hand 1, with the keys the seat published in its own messages.
    peers = Peers(tmp_path, crash_at, tear=False, hands=2, crash_hand=2)
    keys_through_the_store.append(peers)
    peers.table.run()
    assert peers.crashed
    assert 1 not in peers.files_at_crash and 2 in peers.files_at_crash
    sessions = peers.table.sessions
    assert all(s.phase is Phase.OVER for s in sessions), [s.phase for s in sessions]
    assert len({s.transcript.head for s in sessions}) == 1
    assert len(sessions[0].match.results) >= 2
    assert verify_transcript(read_log(peers.dirs[VICTIM]).transcript_bytes()).ok
    assert all(s.stored_hands() == [] for s in peers.secrets)
