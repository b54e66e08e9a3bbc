"""Setting a table up: every seat signs the genesis in seat order, revealing its table nonce, and
the table code follows from the genesis and the nonces (PROTOCOL.md §6). These read and extend a
transcript; the genesis itself (engine of the founding message) is `session.genesis`."""

from __future__ import annotations

from p2p_dominoes.session.envelope import Envelope
from p2p_dominoes.session.errors import InvalidMessage
from p2p_dominoes.session.genesis import GENESIS_SIGN
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.session.table_code import TableCode, opens_commitment, table_code
from p2p_dominoes.session.transcript import Transcript
from p2p_dominoes.words import phrase


def genesis_signers(transcript: Transcript) -> tuple[int, ...]:
    """Seats whose ``genesis_sign`` directly follows the genesis, in transcript order.

    Looks only at the first ``1 + seats`` entries, so it stays cheap on a long transcript.
    """
    signers = []
    for entry in transcript.entries[1 : 1 + len(transcript.genesis.seats)]:
        if entry.envelope.type != GENESIS_SIGN:
            break
        signers.append(entry.envelope.seat)
    return tuple(signers)


def next_genesis_signer(transcript: Transcript) -> int | None:
    """The seat whose ``genesis_sign`` comes next, or None once every seat has signed."""
    signed = len(genesis_signers(transcript))
    return signed if signed < len(transcript.genesis.seats) else None


def sign_genesis(transcript: Transcript, identity: Identity, seat: int, nonce: bytes) -> Envelope:
    """This seat's ``genesis_sign`` at the current head, revealing its table nonce.

    Raises ValueError unless ``nonce`` opens the seat's commitment in the genesis: revealing a
    wrong one would only get this seat blamed.
    """
    seats = transcript.genesis.seats
    if not 0 <= seat < len(seats) or not opens_commitment(
        seats[seat].key, nonce, seats[seat].commitment
    ):
        raise ValueError(phrase("session.why.nonce_does_not_open_genesis", seat=seat + 1))
    return transcript.sign_next(identity, seat, GENESIS_SIGN, (transcript.genesis_hash, nonce))


def revealed_nonces(transcript: Transcript) -> tuple[bytes, ...]:
    """The table nonces revealed so far, in seat order (every seat's once the table is set up)."""
    entries = transcript.entries[1 : 1 + len(genesis_signers(transcript))]
    nonces = []
    for entry in entries:
        nonce = entry.envelope.field("nonce")
        assert isinstance(nonce, bytes)
        nonces.append(nonce)
    return tuple(nonces)


def transcript_table_code(transcript: Transcript) -> TableCode | None:
    """The table code once every seat has signed the genesis (revealed its nonce), else None."""
    if next_genesis_signer(transcript) is not None:
        return None
    return table_code(transcript.genesis_hash, revealed_nonces(transcript))


def check_setup_message(transcript: Transcript, envelope: Envelope) -> None:
    """Setup-phase rule: seats sign the genesis in seat order, once, before any other message.

    Pass as ``transcript.append(envelope, check=check_setup_message)`` while setting up.
    """
    expected = next_genesis_signer(transcript)
    if envelope.type == GENESIS_SIGN:
        if expected is None:
            raise InvalidMessage("out-of-turn", phrase("session.why.every_seat_has_already_signed"))
        if envelope.seat != expected:
            raise InvalidMessage(
                "out-of-turn", phrase("session.why.seat_signs_genesis_next", expected=expected + 1)
            )
        if envelope.field("genesis_hash") != transcript.genesis_hash:
            raise InvalidMessage(
                "bad-genesis", phrase("session.why.genesis_sign_names_different_genesis")
            )
        seat = transcript.genesis.seats[envelope.seat]
        nonce = envelope.field("nonce")
        if not isinstance(nonce, bytes) or not opens_commitment(seat.key, nonce, seat.commitment):
            raise InvalidMessage("bad-nonce", phrase("session.why.revealed_table_nonce_does_not"))
    elif expected is not None:
        raise InvalidMessage(
            "out-of-turn",
            phrase("session.why.before_every_seat_signed_genesis", type=envelope.type.name),
        )
