"""The transport handshake: a small signed-Diffie–Hellman exchange that authenticates both
identities and gives the record layer its keys (PROTOCOL.md §12).

Why not TLS: Python's ``ssl`` has no certificate-verify callback, so a listener cannot accept a
self-signed client certificate whose key it does not know beforehand (a lobby joiner, or a
seated peer that dials before our browser resolved it): OpenSSL aborts with
``CERTIFICATE_VERIFY_FAILED: self-signed certificate``. Nor can the channel be bound to an
in-band signature: Python 3.11 exposes neither TLS 1.3 exporters nor ``tls-exporter``. So:

1. both sides send ``Hello(version, identity key, ephemeral X25519 key, 32-byte nonce)``;
2. ``th = SHA-256(domain ‖ len ‖ hello_initiator ‖ len ‖ hello_responder)``; keys come from
   HKDF-SHA256 over the X25519 secret with salt ``th``, one ChaCha20-Poly1305 key per direction;
3. each side sends, encrypted, ``Auth(Ed25519(identity, role domain ‖ th))``.

A side that refuses the other (a pinned key that does not match, an authorizer's refusal, our
own identity) says why in a plaintext ``Bye`` before it hangs up.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Final

import trio
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from p2p_dominoes.net.errors import (
    FrameError,
    HandshakeError,
    IdentityMismatch,
    OwnIdentity,
    PeerBusy,
    RefusedByPeer,
    TurnedAway,
)
from p2p_dominoes.net.framing import (
    BYE_BUSY,
    BYE_OWN_IDENTITY,
    KEY_SIZE,
    MAX_FRAME_SIZE,
    MAX_HANDSHAKE_FRAME_SIZE,
    NONCE_SIZE,
    TRANSPORT_VERSION,
    Auth,
    Bye,
    FrameDecoder,
    Hello,
    Message,
    decode_message,
    encode_frame,
    encode_message,
)
from p2p_dominoes.net.record_layer import Cipher, FrameReader
from p2p_dominoes.session.identity import Identity, InvalidIdentity, PublicIdentity
from p2p_dominoes.words import phrase

HANDSHAKE_DOMAIN: Final = b"p2p-dominoes v1 transport handshake\x00"
AUTH_DOMAIN_INITIATOR: Final = b"p2p-dominoes v1 transport auth initiator\x00"
AUTH_DOMAIN_RESPONDER: Final = b"p2p-dominoes v1 transport auth responder\x00"
KEYS_INFO: Final = b"p2p-dominoes v1 transport keys\x00"

BYE_TIMEOUT: Final = 0.5
"""Longest a best-effort bye may take before the line is closed anyway (seconds)."""
_FINGERPRINT_CHARS: Final = 32


@dataclass(frozen=True)
class Refusal:
    """An authorizer's refusal with a bye code (``BYE_BUSY``: the dialer may try again later)."""

    reason: str
    code: str | None = None


Authorizer = Callable[[PublicIdentity], str | Refusal | None]
"""Decides on an inbound peer after its hello: ``None`` accepts, a string (or a
:class:`Refusal`, to give a code) is the refusal reason."""


def normalize_fingerprint(fingerprint: str) -> str:
    """The 32 base32 characters of a full fingerprint, upper case, without separators.

    Raises ValueError for anything that is not a full 160-bit fingerprint: pinning to a short
    fingerprint (40 bits) would be grindable.
    """
    text = fingerprint.replace("-", "").replace(" ", "").upper()
    if len(text) != _FINGERPRINT_CHARS:
        raise ValueError(f"a full fingerprint has {_FINGERPRINT_CHARS} base32 characters")
    try:
        base64.b32decode(text)
    except ValueError:
        raise ValueError("a fingerprint is written in base32 (A-Z, 2-7)") from None
    return text


def _matches(expect: PublicIdentity | str, peer: PublicIdentity) -> bool:
    if isinstance(expect, PublicIdentity):
        return expect == peer
    want = normalize_fingerprint(expect).encode("ascii")
    have = peer.fingerprint.replace("-", "").encode("ascii")
    return secrets.compare_digest(want, have)


def _describe(expect: PublicIdentity | str) -> str:
    return expect.fingerprint if isinstance(expect, PublicIdentity) else expect


@dataclass
class Handshaken:
    """What a finished handshake gives the connection: the proven peer, the record layer's
    two directions, and the reader (which may already hold frames the peer sent behind its
    auth)."""

    peer: PublicIdentity
    tx: Cipher
    rx: Cipher
    reader: FrameReader


def transcript_hash(hello_initiator: bytes, hello_responder: bytes) -> bytes:
    """``SHA-256(HANDSHAKE_DOMAIN ‖ u32 len ‖ hello_I ‖ u32 len ‖ hello_R)`` over the encodings."""
    h = hashlib.sha256(HANDSHAKE_DOMAIN)
    for part in (hello_initiator, hello_responder):
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


def derive_keys(shared_secret: bytes, th: bytes) -> tuple[bytes, bytes]:
    """(initiator→responder key, responder→initiator key) from HKDF-SHA256(secret, salt=th)."""
    okm = HKDF(algorithm=hashes.SHA256(), length=2 * KEY_SIZE, salt=th, info=KEYS_INFO).derive(
        shared_secret
    )
    return okm[:KEY_SIZE], okm[KEY_SIZE:]


async def _send_bye_plain(stream: trio.abc.Stream, reason: str, code: str | None = None) -> None:
    """Best effort: tell the peer why we hang up before it is authenticated."""
    with trio.move_on_after(BYE_TIMEOUT):
        with suppress(trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            await stream.send_all(encode_frame(encode_message(Bye.of(reason, code))))


def _refused(bye: Bye) -> RefusedByPeer:
    """The error for a peer's refusal: by its code, never by its words."""
    return (
        PeerBusy(bye.reason, code=bye.code)
        if bye.busy
        else RefusedByPeer(bye.reason, code=bye.code)
    )


async def _read_plain(reader: FrameReader, what: str) -> tuple[bytes, Message]:
    frame = await reader.next()
    if frame is None:
        raise HandshakeError(phrase("net.why.closed_waiting", what=what))
    message = decode_message(frame)
    if isinstance(message, Bye):
        raise _refused(message)
    return frame, message


async def _read_auth(reader: FrameReader, rx: Cipher) -> Auth:
    frame = await reader.next()
    if frame is None:
        raise HandshakeError(phrase("net.why.closed_waiting", what="auth"))
    try:
        plaintext = rx.open(frame)
    except FrameError:
        # A peer that rejects our hello refuses before it has keys: a plaintext bye.
        try:
            refusal = decode_message(frame)
        except FrameError:
            refusal = None
        if isinstance(refusal, Bye):
            raise _refused(refusal) from None
        raise
    message = decode_message(plaintext)
    if isinstance(message, Bye):
        raise _refused(message)
    if not isinstance(message, Auth):
        raise HandshakeError(
            phrase("net.why.expected_got", expected="auth", got=type(message).__name__.lower())
        )
    return message


def _peer_identity(hello: Hello, own: PublicIdentity) -> PublicIdentity:
    if hello.version != TRANSPORT_VERSION:
        raise HandshakeError(
            phrase("net.why.unsupported_version", theirs=hello.version, ours=TRANSPORT_VERSION)
        )
    try:
        peer = PublicIdentity(hello.identity)
    except InvalidIdentity as exc:
        raise HandshakeError(phrase("net.why.invalid_identity", error=exc)) from None
    if peer == own:
        raise OwnIdentity(phrase("net.why.own_identity"))
    return peer


async def handshake(
    stream: trio.abc.Stream,
    identity: Identity,
    *,
    initiator: bool,
    expect: PublicIdentity | str | None,
    authorize: Authorizer | None,
    timeout: float,
) -> Handshaken:
    """Run the handshake on `stream` as the `initiator` or the responder within `timeout`.

    The initiator checks the peer against `expect` (a key or a full fingerprint); the responder
    asks `authorize` after the peer's hello. Raises HandshakeError (or a subclass: the peer
    refused us, is busy, proved another key, or is ourselves).
    """
    reader = FrameReader(stream, FrameDecoder(MAX_HANDSHAKE_FRAME_SIZE))
    ephemeral = X25519PrivateKey.from_private_bytes(secrets.token_bytes(KEY_SIZE))
    mine = encode_message(
        Hello(
            TRANSPORT_VERSION,
            identity.public.raw,
            ephemeral.public_key().public_bytes_raw(),
            secrets.token_bytes(NONCE_SIZE),
        )
    )
    try:
        with trio.fail_after(timeout):
            if initiator:
                await stream.send_all(encode_frame(mine))
            theirs, hello = await _read_plain(reader, "hello")
            if not isinstance(hello, Hello):
                raise HandshakeError(
                    phrase(
                        "net.why.expected_got", expected="hello", got=type(hello).__name__.lower()
                    )
                )
            refusal_code: str | None = None
            try:
                peer = _peer_identity(hello, identity.public)
                if initiator and expect is not None and not _matches(expect, peer):
                    raise IdentityMismatch(
                        phrase(
                            "net.why.proved_other",
                            expected=_describe(expect),
                            fingerprint=peer.fingerprint,
                        )
                    )
                if not initiator and authorize is not None:
                    refusal = authorize(peer)
                    if isinstance(refusal, Refusal) and refusal.code == BYE_BUSY:
                        raise TurnedAway(
                            phrase(
                                "net.why.turned_away",
                                fingerprint=peer.fingerprint,
                                reason=refusal.reason,
                            )
                        )
                    if refusal is not None:
                        text = refusal.reason if isinstance(refusal, Refusal) else refusal
                        if isinstance(refusal, Refusal):
                            refusal_code = refusal.code  # the dialer decides by it
                        raise IdentityMismatch(
                            phrase("net.why.refused", fingerprint=peer.fingerprint, reason=text)
                        )
            except HandshakeError as exc:
                code = BYE_BUSY if isinstance(exc, TurnedAway) else refusal_code
                if isinstance(exc, OwnIdentity):
                    code = BYE_OWN_IDENTITY  # the dialer says: a second peer needs --data-dir
                await _send_bye_plain(stream, str(exc), code)
                raise
            # From here the peer has sent a well-formed hello: allow full-size frames, since an
            # initiator may pipeline data right behind its auth.
            reader.decoder.max_size = MAX_FRAME_SIZE
            hello_i, hello_r = (mine, theirs) if initiator else (theirs, mine)
            th = transcript_hash(hello_i, hello_r)
            try:
                shared = ephemeral.exchange(X25519PublicKey.from_public_bytes(hello.ephemeral))
            except ValueError:
                raise HandshakeError(phrase("net.why.no_shared_secret")) from None
            if shared == bytes(KEY_SIZE):
                raise HandshakeError(phrase("net.why.small_order"))
            k_ir, k_ri = derive_keys(shared, th)
            tx, rx = (Cipher(k_ir), Cipher(k_ri)) if initiator else (Cipher(k_ri), Cipher(k_ir))
            own_domain, peer_domain = (
                (AUTH_DOMAIN_INITIATOR, AUTH_DOMAIN_RESPONDER)
                if initiator
                else (AUTH_DOMAIN_RESPONDER, AUTH_DOMAIN_INITIATOR)
            )
            my_auth = tx.seal(encode_message(Auth(identity.sign(own_domain + th))))
            if not initiator:
                await stream.send_all(encode_frame(mine) + my_auth)
            auth = await _read_auth(reader, rx)
            if not peer.verify(auth.signature, peer_domain + th):
                raise HandshakeError(phrase("net.why.bad_signature", fingerprint=peer.fingerprint))
            if initiator:
                await stream.send_all(my_auth)
    except trio.TooSlowError:
        raise HandshakeError(
            phrase("net.why.handshake_timed_out", seconds=f"{timeout:g}")
        ) from None
    except FrameError as exc:
        raise HandshakeError(phrase("net.why.malformed_handshake", error=exc)) from None
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
        raise HandshakeError(phrase("net.why.lost_in_handshake", error=repr(exc))) from None
    return Handshaken(peer, tx, rx, reader)
