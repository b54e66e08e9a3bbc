"""The page's session kept in the data directory for a restarted `play`: written private and
whole, read back as written, and anything else in the file is no session at all."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from p2p_dominoes.ui.web import PageAccess, PageSession
from p2p_dominoes.ui.web.page_session import FILE_NAME, load_page_session, save_page_session


def test_a_kept_session_is_read_back_and_admitted_again(tmp_path: Path) -> None:
    first = PageAccess()
    session = first.exchange(str(first.link_token))
    assert session is not None
    save_page_session(tmp_path, 41234, session)
    assert stat.S_IMODE((tmp_path / FILE_NAME).stat().st_mode) == 0o600
    saved = load_page_session(tmp_path)
    assert saved is not None and saved.port == 41234 and saved.session == session
    restarted = PageAccess()
    assert not restarted.admits_socket(session.cookie, session.key)
    restarted.resume(saved.session)
    assert restarted.admits_socket(session.cookie, session.key)
    # A link spent in the new run starts a new session: the old tab is refused from then on.
    assert restarted.exchange(str(restarted.link_token)) is not None
    assert not restarted.admits(session.cookie)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        '{"port": 0, "cookie": "a", "key": "b"}',
        '{"port": 4000, "cookie": "a b", "key": "b"}',
        '{"port": "4000", "cookie": "a", "key": "b"}',
        '{"port": 4000, "cookie": "a"}',
    ],
)
def test_anything_else_in_the_file_is_no_session(tmp_path: Path, text: str) -> None:
    (tmp_path / FILE_NAME).write_text(text)
    assert load_page_session(tmp_path) is None


def test_no_file_no_session(tmp_path: Path) -> None:
    assert load_page_session(tmp_path) is None
    assert PageSession("a", "b") != PageSession("a", "c")
