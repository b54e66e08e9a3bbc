"""Sitting down at a table once its genesis exists: check the host's genesis, keep our nonce and
the crash-safe log, make the session for our seat; and reading a lobby message off a link."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes.engine import InvalidRecord, Rules
from p2p_dominoes.net.framing import Data, SyncRequest
from p2p_dominoes.net.lobby import CHANNEL_LOBBY, GenesisOffer, LobbyError, decode_lobby
from p2p_dominoes.net.peer_options import PeerFailure, PeerOptions
from p2p_dominoes.net.said import said
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.session import (
    Envelope,
    Identity,
    InvalidMessage,
    PublicIdentity,
    TableSession,
    Transcript,
    default_registry,
    opens_commitment,
)
from p2p_dominoes.store import (
    HandSecrets,
    PeerAddress,
    TableLog,
    TableNonceFile,
    lottery_stalls,
    table_dir,
)
from p2p_dominoes.words import phrase, reason_in


def sit_down(
    options: PeerOptions,
    transcript: Transcript,
    seat: int,
    table_name: str,
    peers: Sequence[PeerAddress],
    nonce: bytes,
) -> tuple[TableSession, TableLog | None]:
    """The session for our seat, with its crash-safe log and stored hand secrets (if kept).

    How many hands are played is the signed genesis's ``max_hands``.

    Our table nonce is on disk before the log exists, so a peer that crashes before its
    ``genesis_sign`` went out reveals the same nonce when it resumes.
    """
    if options.data_dir is None:
        session = TableSession(transcript, seat, options.identity, table_nonce=nonce)
        return session, None
    directory = table_dir(options.data_dir, transcript.table_id)
    try:
        TableNonceFile(directory).save(transcript.table_id, seat, nonce)
    except (OSError, ValueError) as exc:
        raise PeerFailure(
            phrase("net.cannot_keep_nonce", directory=directory, reason=exc)
        ) from None
    log = TableLog.create(
        directory,
        transcript.table_id,
        seat,
        transcript[0].encoded,
        name=table_name,
        max_hands=transcript.genesis.max_hands,
    )
    log.note_peers(peers)
    _say_lottery_stalls(options, transcript)
    keys = HandSecrets(directory).keys_for
    session = TableSession(
        transcript,
        seat,
        options.identity,
        hand_keys=keys,
        table_nonce=nonce,
    )
    return session, log


def _say_lottery_stalls(options: PeerOptions, transcript: Transcript) -> None:
    """A table restarted after someone stalled the opener lottery says so, once per player:
    every peer that named that stall kept it in its own log (docs/threat-model.md)."""
    assert options.data_dir is not None
    lang = str(getattr(options.ui, "lang", "en"))
    others = [s.key for s in transcript.genesis.seats if s.key != options.identity.public]
    named: set[PublicIdentity] = set()
    for stall in lottery_stalls(options.data_dir, others):
        if stall.key not in named:
            named.add(stall.key)
            name, table = peer_text(stall.name), peer_text(stall.table, 64)
            options.say(said("lottery_stall", lang, name=name, table=table))


def accept_genesis(
    offer: GenesisOffer,
    identity: Identity,
    host_key: PublicIdentity,
    nonce: bytes,
    lang: str = "en",
) -> tuple[Transcript, int]:
    """Check the host's genesis (seat 0 is the host, we hold a seat whose commitment is the
    one we sent for ``nonce``); our transcript and seat. PeerFailure (its words in `lang`)
    when the genesis is not one to sign."""
    try:
        transcript = Transcript(_decode_envelope(offer.envelope), default_registry())
    except InvalidMessage as exc:
        reason = reason_in(exc.reason, lang)
        raise PeerFailure(said("genesis_invalid", lang, reason=reason)) from None
    genesis = transcript.genesis
    if genesis.seats[0].key != host_key:
        raise PeerFailure(said("genesis_host_not_first", lang))
    seat = genesis.seat_of(identity.public)
    if seat is None:
        raise PeerFailure(said("genesis_not_seated", lang))
    if not opens_commitment(identity.public, nonce, genesis.seats[seat].commitment):
        # Signing it would reveal our nonce for a table whose code others chose: refuse.
        raise PeerFailure(said("genesis_no_commitment", lang))
    try:
        Rules.from_wire(genesis.rules).check_players(len(genesis.seats))
    except InvalidRecord as exc:
        raise PeerFailure(said("genesis_unplayable", lang, reason=reason_in(exc, lang))) from None
    return transcript, seat


def _decode_envelope(data: bytes) -> Envelope:
    return Envelope.decode(data, default_registry())


def lobby_message(message: Data | SyncRequest) -> object | None:
    """The lobby message in a transport message, or None if it is something else."""
    if isinstance(message, Data) and message.payload[:1] == bytes([CHANNEL_LOBBY]):
        try:
            return decode_lobby(message.payload[1:])
        except LobbyError:
            return None
    return None
