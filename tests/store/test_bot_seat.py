"""A bot seat's data directory under its host's table: private, stable, found again on resume."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from p2p_dominoes.session import Identity
from p2p_dominoes.store import (
    BOT_FILE_NAME,
    BotSeatError,
    bot_dir,
    bot_seat_key,
    bot_seats,
    keep_bot_seat,
    load_identity_file,
    table_dir,
)

TABLE = bytes(range(16))


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_kept_bot_is_found_again_with_its_identity(tmp_path: Path) -> None:
    identity = Identity.generate()
    kept = keep_bot_seat(tmp_path, TABLE, "bot-1", "random", identity)
    assert kept.directory == table_dir(tmp_path, TABLE) / "bots" / "bot-1"
    assert _mode(kept.directory / "identity.pem") == 0o600
    assert _mode(kept.directory / BOT_FILE_NAME) == 0o600
    assert _mode(kept.directory) == 0o700 and _mode(table_dir(tmp_path, TABLE)) == 0o700
    key = load_identity_file(kept.directory / "identity.pem")
    assert key.public == identity.public
    assert bot_seats(table_dir(tmp_path, TABLE)) == [kept]


def test_a_bot_is_kept_once(tmp_path: Path) -> None:
    keep_bot_seat(tmp_path, TABLE, "bot-1", "random", Identity.generate())
    with pytest.raises(BotSeatError):
        keep_bot_seat(tmp_path, TABLE, "bot-1", "random", Identity.generate())


@pytest.mark.parametrize("name", ["", "../x", "Bot", "a/b", "x" * 40, "."])
def test_a_bot_name_is_a_plain_directory_name(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError):
        bot_dir(tmp_path, TABLE, name)


def test_unreadable_or_foreign_bot_files_are_left_out(tmp_path: Path) -> None:
    kept = keep_bot_seat(tmp_path, TABLE, "bot-1", "random", Identity.generate())
    other = keep_bot_seat(tmp_path, TABLE, "bot-2", "random", Identity.generate())
    (other.directory / BOT_FILE_NAME).chmod(0o644)  # readable by others: not trusted
    stray = table_dir(tmp_path, TABLE) / "bots" / "bot-3"
    stray.mkdir()
    (stray / BOT_FILE_NAME).write_text("not json")
    stray.chmod(0o700)
    (stray / BOT_FILE_NAME).chmod(0o600)
    assert bot_seats(table_dir(tmp_path, TABLE)) == [kept]
    assert bot_seats(tmp_path / "nowhere") == []


def test_a_kept_bots_key_says_which_seat_it_holds(tmp_path: Path) -> None:
    identity = Identity.generate()
    kept = keep_bot_seat(tmp_path, TABLE, "bot-2", "hard", identity)
    assert bot_seat_key(kept) == identity.public
    (kept.directory / "identity.pem").unlink()
    assert bot_seat_key(kept) is None
