"""Option values checked while the command line is parsed, so that no work starts on bad input.

Each function is an argparse ``type=``: it returns the value or raises ArgumentTypeError with
words that say what is wanted (argparse prints them as one line, exit status 2), from the
catalogues (``command.arg.*``) in the language of the command line (`command_language`: argparse
hands a type function the typed text alone). Checks that
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

from p2p_dominoes.commands.command_language import command_language
from p2p_dominoes.peer_text import peer_text
from p2p_dominoes.words import LANGUAGES, line

NAME_LIMIT: Final = 64
NAME_HELP: Final = (
    f"your name at the table: at most {NAME_LIMIT} bytes of UTF-8 "
    f"({NAME_LIMIT} Latin letters, {NAME_LIMIT // 2} Cyrillic ones)"
)
SIMULATE_HANDS_LIMIT: Final = 1_000_000
"""Most hands `simulate` plays in one run (about a minute of the engine alone)."""


def language_argument(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    """Add ``--lang en|ru`` to `parser`: the language of every line the command prints, English
    by default (the CLI's own lines about bad input follow it too: `command_language`). The one
    definition every command that speaks shares; `help_text` says what the language is for when
    that is more than the command's lines (`play`'s page has its own default)."""
    parser.add_argument(
        "--lang",
        default="en",
        choices=LANGUAGES,
        help=help_text or "the language of what it prints (default en)",
    )


def _int(text: str) -> int:
    try:
        return int(text.strip(), 10)
    except ValueError:
        raise argparse.ArgumentTypeError(
            line("command.arg.not_whole", command_language(), typed=repr(text))
        ) from None


def int_between(low: int, high: int) -> Callable[[str], int]:
    """A whole number from `low` to `high` (both included)."""

    def parse(text: str) -> int:
        value = _int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                line("command.arg.not_between", command_language(), value=value, low=low, high=high)
            )
        return value

    parse.__name__ = "number"  # argparse names the type in "invalid number value"
    return parse


def seconds_between(low: float, high: float) -> Callable[[str], float]:
    """A number of seconds greater than `low` and at most `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                line("command.arg.not_seconds", command_language(), typed=repr(text))
            ) from None
        if not (math.isfinite(value) and low < value <= high):
            raise argparse.ArgumentTypeError(
                line(
                    "command.arg.seconds_range",
                    command_language(),
                    text=text,
                    low=f"{low:g}",
                    high=f"{high:g}",
                )
            )
        return value

    parse.__name__ = "seconds"
    return parse


def port(text: str) -> int:
    """A TCP port, 0–65535 (0: any free port)."""
    value = _int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(
            line("command.arg.not_port", command_language(), value=value)
        )
    return value


def player_name(text: str) -> str:
    """A name others read: printable text of at most 64 bytes of UTF-8 (what the lobby and the
    genesis carry), no control, invisible or direction-changing characters."""
    if not text.strip():
        raise argparse.ArgumentTypeError(line("command.arg.empty_name", command_language()))
    shown = peer_text(text, 4 * NAME_LIMIT)
    if shown != text or not text.isprintable():
        raise argparse.ArgumentTypeError(
            line("command.arg.name_unprintable", command_language(), shown=repr(shown[:NAME_LIMIT]))
        )
    if len(text.encode("utf-8")) > NAME_LIMIT:
        raise argparse.ArgumentTypeError(
            line(
                "command.arg.name_too_long",
                command_language(),
                limit=NAME_LIMIT,
                half=NAME_LIMIT // 2,
            )
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
            line("command.arg.not_ip", command_language(), typed=repr(text))
        ) from None
    if ip.is_unspecified or ip.is_multicast:
        raise argparse.ArgumentTypeError(
            line("command.arg.not_one_address", command_language(), address=ip)
        )
    address = str(ip)
    family = socket.AF_INET6 if ip.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((address, 0))
    except OSError as exc:
        if exc.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT, errno.EINVAL):
            raise argparse.ArgumentTypeError(
                line("command.arg.not_ours", command_language(), address=address)
            ) from None
        raise argparse.ArgumentTypeError(
            line("command.arg.cannot_use", command_language(), address=address, error=exc.strerror)
        ) from None
    return address


def _expanded(text: str) -> Path:
    """`text` as a path with `~` expanded; an unknown `~user` is bad input, not a crash."""
    try:
        return Path(text).expanduser()
    except RuntimeError:
        raise argparse.ArgumentTypeError(
            line("command.no_home", command_language(), path=peer_text(text, 200))
        ) from None


def _path_problem(exc: OSError) -> argparse.ArgumentTypeError:
    """The one line for a path the system refuses to look at (too long, no permission, …)."""
    from p2p_dominoes.commands.exits import os_error_text

    return argparse.ArgumentTypeError(os_error_text(exc))


def output_file(text: str) -> Path:
    """A file to write: its folder must exist and be writable, and it must not be a folder."""
    if not text:
        raise argparse.ArgumentTypeError(line("command.arg.give_file", command_language()))
    try:
        return _writable(_expanded(text))
    except OSError as exc:
        raise _path_problem(exc) from None


def _writable(path: Path) -> Path:
    """`path` if a file can be written there, else the one line saying why not."""
    if path.is_dir():
        raise argparse.ArgumentTypeError(
            line("command.arg.folder_not_file", command_language(), path=path)
        )
    folder = path.parent
    if not folder.exists():
        raise argparse.ArgumentTypeError(
            line("command.arg.no_folder", command_language(), folder=folder)
        )
    if not folder.is_dir():
        raise argparse.ArgumentTypeError(
            line("command.arg.not_folder", command_language(), folder=folder)
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(
            line("command.arg.cannot_write_in", command_language(), folder=folder)
        )
    if path.exists() and not os.access(path, os.W_OK):
        raise argparse.ArgumentTypeError(
            line("command.arg.read_only", command_language(), path=path)
        )
    return path


def data_folder(text: str) -> Path:
    """A data directory: a folder (made on first use), never an existing file."""
    if not text:
        raise argparse.ArgumentTypeError(line("command.arg.give_folder", command_language()))
    path = _expanded(text).absolute()  # the page links to files in it by absolute address
    try:
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(
                line("command.arg.file_not_folder", command_language(), path=path)
            )
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
                line("command.arg.port_taken", command_language(), port=chosen, option=option)
            )
        return chosen
    if port_is_free(default, interface):
        return default
    say(line("command.arg.default_port_taken", command_language(), port=default, option=option))
    return 0
