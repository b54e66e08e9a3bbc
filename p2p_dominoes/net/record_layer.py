"""The transport's record layer (PROTOCOL.md §12): after the handshake every frame is
``u32 length ‖ ChaCha20-Poly1305(key, counter, message, aad=length)``, one key and one 64-bit
frame counter a direction, so a forged, reordered or replayed frame fails authentication.

`FrameReader` pulls complete frame payloads out of a stream (the handshake reads its plaintext
frames through it too). Nothing here knows about handshakes, peers or timeouts.
"""

from __future__ import annotations

from collections import deque
from typing import Final

import trio
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from p2p_dominoes.net.errors import FrameError
from p2p_dominoes.net.framing import LENGTH_PREFIX_SIZE, MAX_FRAME_SIZE, FrameDecoder
from p2p_dominoes.words import phrase

AEAD_TAG_SIZE: Final = 16

_RECEIVE_SIZE: Final = 64 * 1024
_MAX_COUNTER: Final = 2**64 - 1


class Cipher:
    """One direction of the record layer: ChaCha20-Poly1305 with a 64-bit frame counter."""

    __slots__ = ("_aead", "_counter")

    def __init__(self, key: bytes) -> None:
        self._aead = ChaCha20Poly1305(key)
        self._counter = 0

    def _nonce(self) -> bytes:
        if self._counter >= _MAX_COUNTER:
            raise FrameError(phrase("net.why.counter_exhausted"))
        nonce = bytes(4) + self._counter.to_bytes(8, "big")
        self._counter += 1
        return nonce

    def seal(self, plaintext: bytes) -> bytes:
        """The whole wire frame (length prefix included) carrying ``plaintext``."""
        size = len(plaintext) + AEAD_TAG_SIZE
        if size > MAX_FRAME_SIZE:
            raise FrameError(phrase("net.why.message_too_big", size=len(plaintext)))
        header = size.to_bytes(LENGTH_PREFIX_SIZE, "big")
        return header + self._aead.encrypt(self._nonce(), plaintext, header)

    def open(self, payload: bytes) -> bytes:
        """Decrypt one frame payload; a forged, reordered or replayed frame raises FrameError."""
        header = len(payload).to_bytes(LENGTH_PREFIX_SIZE, "big")
        try:
            return self._aead.decrypt(self._nonce(), payload, header)
        except InvalidTag:
            raise FrameError(phrase("net.why.frame_forged")) from None


class FrameReader:
    """Pulls complete frame payloads out of a stream through a FrameDecoder."""

    __slots__ = ("_decoder", "_pending", "_stream")

    def __init__(self, stream: trio.abc.Stream, decoder: FrameDecoder) -> None:
        self._stream = stream
        self._decoder = decoder
        self._pending: deque[bytes] = deque()

    @property
    def decoder(self) -> FrameDecoder:
        """The decoder the frames go through (the handshake raises its size limit)."""
        return self._decoder

    async def next(self) -> bytes | None:
        """The next frame payload, or None at end of stream."""
        while not self._pending:
            data = await self._stream.receive_some(_RECEIVE_SIZE)
            if not data:
                return None
            self._pending.extend(self._decoder.feed(data))
        return self._pending.popleft()
