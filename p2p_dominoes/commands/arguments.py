"""Option values checked while the command line is parsed, so that no work starts on bad input.

Each function is an argparse ``type=``: it returns the value or raises ArgumentTypeError with
words that say what is wanted (argparse prints them as one line, exit status 2). Checks that
need the machine (is this address ours, is this port free, does this folder exist) are done
here too, with sockets bound and closed at once and never a packet sent.
"""

from __future__ import annotations

import argparse
import errno
import ipaddress
import math
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Final

from p2p_dominoes.peer_text import peer_text

NAME_LIMIT: Final = 64
NAME_HELP: Final = (
    f"your name at the table: at most {NAME_LIMIT} bytes of UTF-8 "
    f"({NAME_LIMIT} Latin letters, {NAME_LIMIT // 2} Cyrillic ones)"
)
SIMULATE_HANDS_LIMIT: Final = 1_000_000
"""Most hands `simulate` plays in one run (about a minute of the engine alone)."""


def _int(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def int_between(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high` (both included)."""

    def parse(text: str) -> int:
        value = _int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not {low}–{high}")
        return value

    parse.__name__ = "number"  # argparse names the type in "invalid number value"
    return parse


def seconds_between(low: float, high: float) -> Callable[[str], float]:
    """A number of seconds greater than `low` and at most `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not (math.isfinite(value) and low < value <= high):
            raise argparse.ArgumentTypeError(
                f"{text} is not more than {low:g} and at most {high:g}"
            )
        return value

    parse.__name__ = "seconds"
    return parse


def port(text: str) -> int:
    """A TCP port, 0–65535 (0: any free port)."""
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port (0–65535; 0 picks any free port)")
    return value


def player_name(text: str) -> str:
    """A name others read: printable text of at most 64 bytes of UTF-8 (what the lobby and the
    genesis carry), no control, invisible or direction-changing characters."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a name cannot be empty")
    shown = peer_text(text, 4 * NAME_LIMIT)
    if shown != text or not text.isprintable():
        raise argparse.ArgumentTypeError(
            f"{shown[:NAME_LIMIT]!r}: a name is plain printable text (no control, invisible "
            "or direction-changing characters)"
        )
    if len(text.encode("utf-8")) > NAME_LIMIT:
        raise argparse.ArgumentTypeError(
            f"a name is at most {NAME_LIMIT} bytes of UTF-8 ({NAME_LIMIT} Latin letters, "
            f"{NAME_LIMIT // 2} Cyrillic ones)"
        )
    return text


def fitted_name(text: str) -> str:
    """`text` made a valid name: cleaned, cut to 64 bytes of UTF-8 (for names we make up)."""
    cleaned = "".join(c for c in peer_text(text, 4 * NAME_LIMIT) if c.isprintable()).strip()
    data = cleaned.encode("utf-8")[:NAME_LIMIT]
    return data.decode("utf-8", "ignore").strip() or "player"


def interface_address(text: str) -> str:
    """One of this machine's IP addresses (checked by binding it, nothing is sent)."""
    try:
        ip = ipaddress.ip_address(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not an IP address (for example 192.168.1.20 or 127.0.0.1; see `ip addr`)"
        ) from None
    if ip.is_unspecified or ip.is_multicast:
        raise argparse.ArgumentTypeError(f"{ip} is not one address of this machine")
    address = str(ip)
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError as exc:
        if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EINVAL):
            raise argparse.ArgumentTypeError(
                f"{address} is not an address of this machine (see `ip addr`; "
                "leave out --interface to use them all)"
            ) from None
        raise argparse.ArgumentTypeError(f"cannot use {address}: {exc.strerror}") from None
    return address


def _expanded(text: str) -> Path:
    """`text` as a path with `~` expanded; an unknown `~user` is bad input, not a crash."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        raise argparse.ArgumentTypeError(
            f"{peer_text(text, 200)}: no such user's home folder: check the path"
        ) from None


def _path_problem(exc: OSError) -> argparse.ArgumentTypeError:
    """The one line for a path the system refuses to look at (too long, no permission, …)."""
    from p2p_dominoes.commands.exits import os_error_text

    return argparse.ArgumentTypeError(os_error_text(exc))


def output_file(text: str) -> Path:
    """A file to write: its folder must exist and be writable, and it must not be a folder."""
    if not text:
        raise argparse.ArgumentTypeError("give a file name")
    try:
        return _writable(_expanded(text))
    except OSError as exc:
        raise _path_problem(exc) from None


def _writable(path: Path) -> Path:
    """`path` if a file can be written there, else the one line saying why not."""
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is a folder: give a file name inside it")
    folder = path.parent
    if not folder.exists():
        raise argparse.ArgumentTypeError(f"the folder {folder} does not exist: create it first")
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(f"{folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"cannot write in {folder}: pick a folder you own")
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write {path}: it is read-only")
    return path


def data_folder(text: str) -> Path:
    """A data directory: a folder (made on first use), never an existing file."""
    if not text:
        raise argparse.ArgumentTypeError("give a folder")
    path = _expanded(text).absolute()  # the page links to files in it by absolute address
    try:
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{path} is a file, not a folder")
    except OSError as exc:
        raise _path_problem(exc) from None
    return path


def port_is_free(port: int, interface: str | None) -> bool:
    """Whether a listener could bind `port` now (on `interface`, or every address)."""
    if port == 0:
        return True
    targets: list[tuple[socket.AddressFamily, str]]
    if interface is None:
        targets = [(socket.AF_INET6, "::"), (socket.AF_INET, "0.0.0.0")]  # noqa: S104 (wanted)
    else:
        ip = ipaddress.ip_address(interface)
        targets = [(socket.AF_INET6 if ip.version == 6 else socket.AF_INET, str(ip))]
    for family, host in targets:
        try:
            sock = socket.socket(family, socket.SOCK_STREAM)
        except OSError:
            continue  # no IPv6 here: try IPv4
        with sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and host == "::":
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            try:
                sock.bind((host, port))
            except OSError as exc:
                if exc.errno == errno.EADDRINUSE:
                    return False
                if exc.errno in (errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL) and host == "::":
                    continue
                return True  # another problem: the listener names it when it binds
            return True
    return True


class PortBusy(Exception):
    """An explicitly chosen port is taken: the words say which and what to do."""


def listening_port(
    chosen: int | None,
    default: int,
    interface: str | None,
    option: str,
    say: Callable[[str], None],
) -> int:
    """The port to listen on: `chosen` if it is free (PortBusy otherwise); without a choice
    `default`, or any free port when that is taken (and `say` says so)."""
    if chosen is not None:
        if not port_is_free(chosen, interface):
            raise PortBusy(
                f"port {chosen} is already in use (another p2p-dominoes?): choose another "
                f"{option}, or {option} 0 for any free port"
            )
        return chosen
    if port_is_free(default, interface):
        return default
    say(
        f"Port {default} is in use (another p2p-dominoes on this machine?): listening on a free "
        f"port instead. Players who join by address need the new port; a firewall that opens "
        f"only {default} blocks it (give {option} to choose one)."
    )
    return 0
