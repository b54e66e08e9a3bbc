"""A table's mDNS advertisement as data: its TXT fields, its instance name, and its signature.

Anyone on the LAN can send mDNS records, so a browser believes an ad (and any later update or
close of it) only when the TXT record carries the advertiser's Ed25519 public key, that key's
fingerprint is the advertised ``fp``, and its signature covers every TXT field, the instance
name and the SRV port, under a domain-separation prefix. A sequence number that only grows lets
a browser refuse an old signed record replayed over a newer one. Pure: no sockets, no zeroconf.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from p2p_dominoes.net.connection import normalize_fingerprint
from p2p_dominoes.peer_text import forbidden_code_point
from p2p_dominoes.session.envelope import PROTOCOL_VERSION
from p2p_dominoes.session.identity import (
    SIGNATURE_SIZE,
    Identity,
    InvalidIdentity,
    PublicIdentity,
)

SERVICE_TYPE: Final = "_p2p-dominoes._tcp.local."
PHASES: Final = ("lobby", "playing", "closed")
"""``closed`` is the host's signed last word before its goodbye: browsers drop the table."""
TABLE_ID_SIZE: Final = 16
MAX_TXT_NAME_BYTES: Final = 64
MAX_SEATS_ADVERTISED: Final = 16
MAX_INSTANCE_BYTES: Final = 63
MAX_ADDR_BYTES: Final = 200
"""Bytes of the signed ``addr`` entry's value (addresses that do not fit are left out)."""
MAX_SEQ: Final = 2**53
AD_SIGNATURE_DOMAIN: Final = b"p2p-dominoes/v1/mdns-table-ad\x00"
"""Prefix of every signed advertisement, so the signature means nothing in any other protocol."""

_RULES: Final = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
_SEATS: Final = re.compile(r"([0-9]{1,2})/([0-9]{1,2})")
_TID: Final = re.compile(r"[0-9a-f]{32}")
_SEQ: Final = re.compile(r"[1-9][0-9]{0,15}")
_B64URL: Final = re.compile(r"[A-Za-z0-9_-]+")
_TAG: Final = re.compile(r" \[([A-Z2-7]{4}-[A-Z2-7]{4})/([0-9a-f]{4})(?:-[0-9a-f]{6})?\]\Z")
"""The end of every instance name (see :func:`instance_name`): the name is bound to the key."""
_TXT_KEYS: Final = frozenset(
    {"v", "tid", "table", "player", "fp", "seats", "rules", "phase", "pk", "seq", "addr", "sig"}
)
_MAX_TXT_ENTRY: Final = 255


class InvalidAd(ValueError):
    """A TXT record or name that is not a well-formed, correctly signed table advertisement."""


def _check_name(value: object, what: str) -> str:
    if type(value) is not str:
        raise ValueError(f"{what} must be a str")
    size = len(value.encode("utf-8"))
    if not 1 <= size <= MAX_TXT_NAME_BYTES:
        raise ValueError(f"{what} must be 1..{MAX_TXT_NAME_BYTES} bytes of UTF-8")
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in value):
        raise ValueError(f"{what} must not contain control characters")
    return value


def format_fingerprint(fingerprint: str) -> str:
    """A fingerprint in its canonical ``ABCD-EFGH-…`` form (ValueError if it is not one)."""
    text = normalize_fingerprint(fingerprint)
    return "-".join(text[i : i + 4] for i in range(0, len(text), 4))


@dataclass(frozen=True)
class TableInfo:
    """What one peer says about its table in its mDNS TXT record (all fields validated).

    ``player_name`` and ``fingerprint`` are the advertising peer's (the host's, for the host's
    own ad); ``fingerprint`` is the full one, which a dialer pins with ``connect(expect=…)``.
    """

    table_id: bytes
    table_name: str
    player_name: str
    fingerprint: str
    seats_taken: int
    seats_total: int
    rules: str
    phase: str
    version: int = PROTOCOL_VERSION

    def __post_init__(self) -> None:
        if type(self.table_id) is not bytes or len(self.table_id) != TABLE_ID_SIZE:
            raise ValueError(f"table_id must be {TABLE_ID_SIZE} bytes")
        _check_name(self.table_name, "table_name")
        _check_name(self.player_name, "player_name")
        if type(self.fingerprint) is not str:
            raise ValueError("fingerprint must be a str")
        object.__setattr__(self, "fingerprint", format_fingerprint(self.fingerprint))
        for name in ("seats_taken", "seats_total", "version"):
            if type(getattr(self, name)) is not int:
                raise ValueError(f"{name} must be an int")
        if not 1 <= self.seats_total <= MAX_SEATS_ADVERTISED:
            raise ValueError(f"seats_total must be in 1..{MAX_SEATS_ADVERTISED}")
        if not 0 <= self.seats_taken <= self.seats_total:
            raise ValueError("seats_taken must be in 0..seats_total")
        if type(self.rules) is not str or not _RULES.fullmatch(self.rules):
            raise ValueError(f"rules must match {_RULES.pattern}")
        if self.phase not in PHASES:
            raise ValueError(f"phase must be one of {PHASES}")
        if not 0 <= self.version <= 0xFFFF:
            raise ValueError("version must be in 0..65535")

    @property
    def short_fingerprint(self) -> str:
        """The first two groups of the fingerprint, for list labels."""
        return self.fingerprint[:9]

    def to_txt(self) -> dict[str, str]:
        """The table's own TXT key/value pairs (the signed record adds ``pk seq addr sig``)."""
        return {
            "v": str(self.version),
            "tid": self.table_id.hex(),
            "table": self.table_name,
            "player": self.player_name,
            "fp": self.fingerprint,
            "seats": f"{self.seats_taken}/{self.seats_total}",
            "rules": self.rules,
            "phase": self.phase,
        }

    @classmethod
    def from_txt(cls, properties: Mapping[bytes, bytes | None]) -> TableInfo:
        """Parse the table's fields of a TXT record strictly; anything unexpected raises."""
        text = _text_fields(properties)
        missing = {"v", "tid", "table", "player", "fp", "seats", "rules", "phase"} - text.keys()
        if missing:
            raise ValueError(f"TXT record lacks {sorted(missing)}")
        if not text["v"].isdigit() or len(text["v"]) > 5:
            raise ValueError("TXT v must be a decimal number")
        seats = _SEATS.fullmatch(text["seats"])
        if seats is None:
            raise ValueError("TXT seats must be TAKEN/TOTAL")
        if not _TID.fullmatch(text["tid"]):
            raise ValueError("TXT tid must be 32 lower-case hex digits")
        return cls(
            table_id=bytes.fromhex(text["tid"]),
            table_name=text["table"],
            player_name=text["player"],
            fingerprint=text["fp"],
            seats_taken=int(seats.group(1)),
            seats_total=int(seats.group(2)),
            rules=text["rules"],
            phase=text["phase"],
            version=int(text["v"]),
        )


def _text_fields(properties: Mapping[bytes, bytes | None]) -> dict[str, str]:
    """Our keys of a TXT record, decoded strictly (unknown keys are skipped)."""
    text: dict[str, str] = {}
    for raw_key, raw_value in properties.items():
        if type(raw_key) is not bytes:
            raise ValueError("TXT keys must be bytes")
        key = raw_key.decode("ascii", "strict")
        if key not in _TXT_KEYS:
            continue  # unknown keys are allowed, for later versions (and they are signed)
        if raw_value is None:
            raise ValueError(f"TXT key {key!r} has no value")
        text[key] = raw_value.decode("utf-8", "strict")
    return text


def instance_name(info: TableInfo, suffix: str = "") -> str:
    """``"<player> [<short fp>/<table id>]"`` (plus ``-<suffix>``) — at most 63 bytes.

    Simultaneous starts with equal names defeat mDNS renaming (LAN_NOTES §1.3-6), so the name
    carries the key and the table instead of relying on conflict resolution; ``suffix`` is a
    fresh random tag when a (possibly hostile) responder claimed the name first.
    """
    tag = f"/{info.table_id.hex()[:4]}" + (f"-{suffix}" if suffix else "")
    end = f" [{info.short_fingerprint}{tag}]"
    name = "".join(" " if c == "." or not c.isprintable() else c for c in info.player_name)
    budget = MAX_INSTANCE_BYTES - len(end.encode("utf-8"))
    name = name.encode("utf-8")[:budget].decode("utf-8", "ignore").strip() or "peer"
    return f"{name}{end}"


def instance_label(name: object) -> str | None:
    """The instance part of a full service name if it is one of ours exactly; else None.

    Exactly: it ends with :data:`SERVICE_TYPE` letter for letter (DNS compares names without
    case, python-zeroconf's ``ServiceInfo`` does not and raises), and the instance is 1..63
    bytes of UTF-8 without dots, control characters, bidi overrides or invisibles. Checked
    before a name reaches any zeroconf API that raises on odd names.
    """
    if type(name) is not str or len(name) > MAX_INSTANCE_BYTES + len(SERVICE_TYPE) + 1:
        return None
    if not name.endswith("." + SERVICE_TYPE):
        return None
    label = name[: -len(SERVICE_TYPE) - 1]
    try:
        size = len(label.encode("utf-8"))
    except UnicodeEncodeError:
        return None
    if not 1 <= size <= MAX_INSTANCE_BYTES or "." in label or label != label.strip():
        return None
    if forbidden_code_point(label) is not None or not label.isprintable():
        return None
    return label


def txt_properties(text: bytes) -> dict[bytes, bytes | None]:
    """A raw TXT record's entries as python-zeroconf reads them (the first of a key wins; a
    key without ``=`` has no value)."""
    properties: dict[bytes, bytes | None] = {}
    pos = 0
    while pos < len(text):
        length = text[pos]
        key, sep, value = text[pos + 1 : pos + 1 + length].partition(b"=")
        pos += 1 + length
        if key not in properties:
            properties[key] = value if sep else None
    return properties


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _field(data: bytes) -> bytes:
    return len(data).to_bytes(2, "big") + data


def signed_bytes(instance: str, port: int, properties: Mapping[bytes, bytes | None]) -> bytes:
    """What an ad's signature covers: the domain, the service type, the instance name, the SRV
    port, and every TXT entry but ``sig`` (sorted by key; a key without a value is marked)."""
    parts = [AD_SIGNATURE_DOMAIN, _field(SERVICE_TYPE.encode()), _field(instance.encode())]
    parts.append(port.to_bytes(2, "big"))
    entries = sorted((k, v) for k, v in properties.items() if k != b"sig")
    parts.append(len(entries).to_bytes(2, "big"))
    for key, value in entries:
        parts.append(_field(key))
        parts.append(b"\xff\xff" if value is None else _field(value))
    return b"".join(parts)


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str, size: int, what: str) -> bytes:
    if not _B64URL.fullmatch(text) or len(text) != (size * 4 + 2) // 3:
        raise InvalidAd(f"{what} is not {size} bytes of unpadded base64url")
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InvalidAd(f"{what} is not base64url") from None
    if len(data) != size or _b64(data) != text:
        raise InvalidAd(f"{what} is not canonical base64url")
    return data


def signed_addresses(addresses: Sequence[str]) -> list[str]:
    """The leading addresses that fit the signed ``addr`` entry (≤ :data:`MAX_ADDR_BYTES`)."""
    kept: list[str] = []
    for address in addresses:
        if len(",".join([*kept, address])) > MAX_ADDR_BYTES:
            break
        kept.append(address)
    return kept


@dataclass(frozen=True)
class SignedAd:
    """A verified advertisement: the table info, the key that signed it, its sequence number,
    and the addresses the advertiser signed (the ones to dial)."""

    instance: str
    port: int
    info: TableInfo
    key: PublicIdentity
    seq: int
    addresses: tuple[str, ...]

    @staticmethod
    def txt(
        identity: Identity,
        info: TableInfo,
        *,
        instance: str,
        port: int,
        seq: int,
        addresses: Sequence[str],
    ) -> dict[bytes, bytes]:
        """The signed TXT record for ``info`` (every entry at most 255 bytes)."""
        if identity.public.fingerprint != info.fingerprint:
            raise ValueError("the ad's fingerprint is not this identity's")
        if type(seq) is not int or not 1 <= seq < MAX_SEQ:
            raise ValueError(f"seq must be in 1..{MAX_SEQ - 1}")
        if type(port) is not int or not 1 <= port <= 65535:
            raise ValueError("port must be in 1..65535")
        if instance_label(f"{instance}.{SERVICE_TYPE}") != instance:
            raise ValueError(f"{instance!r} is not a valid instance name")
        kept = signed_addresses(addresses)
        if not kept:
            raise ValueError("an ad needs at least one address")
        fields = {
            **info.to_txt(),
            "pk": _b64(identity.public.raw),
            "seq": str(seq),
            "addr": ",".join(kept),
        }
        properties = {k.encode(): v.encode("utf-8") for k, v in fields.items()}
        signature = identity.sign(signed_bytes(instance, port, properties))
        properties[b"sig"] = _b64(signature).encode("ascii")
        for key, value in properties.items():
            if len(key) + 1 + len(value) > _MAX_TXT_ENTRY:
                raise ValueError(f"TXT entry {key.decode()!r} is over {_MAX_TXT_ENTRY} bytes")
        return properties

    @classmethod
    def verify(cls, instance: str, port: int, properties: Mapping[bytes, bytes | None]) -> SignedAd:
        """Parse and check a received ad; InvalidAd says why it is not believed."""
        if instance_label(f"{instance}.{SERVICE_TYPE}") != instance:
            raise InvalidAd("the instance name is not one of ours")
        if type(port) is not int or not 1 <= port <= 65535:
            raise InvalidAd("no valid SRV port")
        if any(len(k) + 1 + len(v or b"") > _MAX_TXT_ENTRY for k, v in properties.items()):
            raise InvalidAd("a TXT entry is over 255 bytes")
        try:
            info = TableInfo.from_txt(properties)
            text = _text_fields(properties)
        except (ValueError, UnicodeDecodeError) as exc:
            raise InvalidAd(f"malformed TXT record: {exc}") from None
        for needed in ("pk", "seq", "addr", "sig"):
            if needed not in text:
                raise InvalidAd(f"unsigned ad (no {needed!r})")
        try:
            key = PublicIdentity(_unb64(text["pk"], 32, "pk"))
        except InvalidIdentity as exc:
            raise InvalidAd(f"pk: {exc}") from None
        if key.fingerprint != info.fingerprint:
            raise InvalidAd("pk does not match the advertised fingerprint")
        signature = _unb64(text["sig"], SIGNATURE_SIZE, "sig")
        if not key.verify(signature, signed_bytes(instance, port, properties)):
            raise InvalidAd("bad signature")
        tag = _TAG.search(instance)
        if tag is None or tag.group(1) != info.short_fingerprint:
            raise InvalidAd("the instance name does not carry the key's short fingerprint")
        if tag.group(2) != info.table_id.hex()[:4]:
            raise InvalidAd("the instance name does not carry the table id")
        if not _SEQ.fullmatch(text["seq"]) or int(text["seq"]) >= MAX_SEQ:
            raise InvalidAd("seq is not a decimal number in range")
        addresses = tuple(text["addr"].split(","))
        if len(text["addr"]) > MAX_ADDR_BYTES or not all(map(_is_ip, addresses)):
            raise InvalidAd(f"addr must list IP addresses in at most {MAX_ADDR_BYTES} bytes")
        return cls(instance, port, info, key, int(text["seq"]), addresses)
