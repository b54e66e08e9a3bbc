"""The transport handshake vectors of PROTOCOL.md §12.9, byte for byte."""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from p2p_dominoes.net import (
    AUTH_DOMAIN_INITIATOR,
    AUTH_DOMAIN_RESPONDER,
    Auth,
    Data,
    Hello,
    decode_message,
    derive_keys,
    encode_message,
    transcript_hash,
)
from p2p_dominoes.net.record_layer import Cipher
from p2p_dominoes.session import Identity


def _seed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


ALICE = Identity.from_private_bytes(_seed("alice"))
BOB = Identity.from_private_bytes(_seed("bob"))
EPH_A = X25519PrivateKey.from_private_bytes(_seed("alice ephemeral"))
EPH_B = X25519PrivateKey.from_private_bytes(_seed("bob ephemeral"))

HELLO_I = bytes.fromhex(
    "950101c420d5bf4a3fcce717b0388bcc2749ebc148ad9969b23f45ee1b605fd58778576ac4c4209b6d9e84cd"
    "d58b6de4adf54cc8c28e387917a5a6736c2ff87b3d009f21b5f111c4204c0c2c8a89be3b8ee23010240cd0e0"
    "4daf8c1296b05e3d7dbe6817bb22503db2"
)
HELLO_R = bytes.fromhex(
    "950101c420ecc1b58727f3f12b3194881a9ecb9de0b28ce7b207230d8e930fe1bce75e256cc420ab33e83e43"
    "5952340c1f8a9c0cd73a904fd86953128aeccb27a1a5e12484b45ec42079c0686542da53175bf5fccfde02ae"
    "e6d693ce89226d60b6391a2b32c96fc770"
)
TH = "6612af194f69587542add35ea8a4b729b8d6b1fcb71cfd9f32252d46fae5e2e8"
K_IR = "0c9b3ae238cc444e82104ed1667e49f7d324c494fc3c9ea9e704548770157aa9"
K_RI = "d21e819c7b8028f8b22850e6634a9da02693faff78c5e518d3a6cea12aa40d29"
AUTH_R_FRAME = (
    "00000054d453243c28570b398462a84ad94c218e039d0bfb64b4761f32bbff4025b3cde35f0c249772ac41e110"
    "85130826d6671494eb16f41d0c3780bf1e8a84d94660dca5589c038dc15a9392cd70a97c1ec0d1d3b71093"
)
AUTH_I_FRAME = (
    "0000005411bbd461a5a15cf82a4004ab189e8c09e569e8d35086d4832671aeac85906193d45365864b2e4a4378"
    "7387ee953f20ed54ba6949d5876525660e283b094c7cf11bff1f0bd22c4900bd6c0103e1e13460f63bcc5d"
)
DATA_FRAME = "0000001981752fccb0d22d1d7d727e2c83779cb087693d841a29105e53"


def test_hellos() -> None:
    hello_i = Hello(
        1, ALICE.public.raw, EPH_A.public_key().public_bytes_raw(), _seed("alice nonce")
    )
    hello_r = Hello(1, BOB.public.raw, EPH_B.public_key().public_bytes_raw(), _seed("bob nonce"))
    assert encode_message(hello_i) == HELLO_I and decode_message(HELLO_I) == hello_i
    assert encode_message(hello_r) == HELLO_R and decode_message(HELLO_R) == hello_r


def test_transcript_keys_signatures_and_frames() -> None:
    th = transcript_hash(HELLO_I, HELLO_R)
    assert th.hex() == TH
    shared = EPH_A.exchange(EPH_B.public_key())
    assert shared == EPH_B.exchange(EPH_A.public_key())
    k_ir, k_ri = derive_keys(shared, th)
    assert (k_ir.hex(), k_ri.hex()) == (K_IR, K_RI)
    sig_r = BOB.sign(AUTH_DOMAIN_RESPONDER + th)
    sig_i = ALICE.sign(AUTH_DOMAIN_INITIATOR + th)
    assert BOB.public.verify(sig_r, AUTH_DOMAIN_RESPONDER + th)
    assert not BOB.public.verify(sig_r, AUTH_DOMAIN_INITIATOR + th)  # roles are not swappable
    assert Cipher(k_ri).seal(encode_message(Auth(sig_r))).hex() == AUTH_R_FRAME
    initiator = Cipher(k_ir)
    assert initiator.seal(encode_message(Auth(sig_i))).hex() == AUTH_I_FRAME
    assert initiator.seal(encode_message(Data(b"hello"))).hex() == DATA_FRAME  # counter 1
    receiver = Cipher(k_ir)
    assert decode_message(receiver.open(bytes.fromhex(AUTH_I_FRAME)[4:])) == Auth(sig_i)
    assert decode_message(receiver.open(bytes.fromhex(DATA_FRAME)[4:])) == Data(b"hello")
