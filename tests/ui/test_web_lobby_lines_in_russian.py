"""The peer's own lines on a Russian page (the lobby's status lines and the table's log, which
net/ writes): a host and a joiner, both in Russian, see no English from a table's opening to its
first moves, once names, fingerprints, addresses and the command to type are set aside."""

from __future__ import annotations

from pathlib import Path

from tests.ui.latin_words import english_in
from tests.ui.web_peers import PageDriver, PlayProcess


def lines_of(page: PageDriver) -> list[str]:
    seen: list[str] = []
    for message in page.messages:
        for line in message.get("lines", []) + message.get("log", []):
            if line not in seen:
                seen.append(line)
    return seen


def test_a_russian_host_and_joiner_read_their_peers_lines_in_russian(tmp_path: Path) -> None:
    anna = PlayProcess("Анна", tmp_path / "anna", lang="ru")
    boris = PlayProcess("Борис", tmp_path / "boris", lang="ru")
    try:
        host, joiner = anna.page(), boris.page()
        host.wait_for(lambda p: p.lobby)
        table = {"type": "host", "table": "Кухня", "rules": "draw", "players": 3, "bots": 1}
        host.send({**table, "hands": 1})
        host.wait_for(lambda p: p.lobby.get("host_lobby"))
        joiner.send({"type": "join", "address": f"127.0.0.1:{anna.lan_port}"})
        for page in (host, joiner):
            page.wait_for(lambda p: p.table.get("line"), 60)  # moves have been made
        said_host, said_joiner = lines_of(host), lines_of(joiner)
        assert any("открыт на порту" in line for line in said_host), said_host
        assert any("Попросили у хозяина место" in line for line in said_joiner), said_joiner
        left = english_in(said_host + said_joiner)
        assert left == [], "\n".join(left)
    finally:
        anna.stop()
        boris.stop()


def test_a_russian_joiner_refused_by_the_host_reads_why_in_russian(tmp_path: Path) -> None:
    anna = PlayProcess("Анна", tmp_path / "anna", lang="ru")
    boris = PlayProcess("Борис", tmp_path / "boris", lang="ru")
    try:
        host, joiner = anna.page(approve=False), boris.page()
        host.wait_for(lambda p: p.lobby)
        host.send({"type": "host", "table": "Кухня", "rules": "draw", "players": 2, "hands": 1})
        host.wait_for(lambda p: p.lobby.get("host_lobby"))
        joiner.send({"type": "join", "address": f"127.0.0.1:{anna.lan_port}"})
        pending = host.wait_for(lambda p: (p.lobby.get("host_lobby") or {}).get("pending"))
        host.send({"type": "refuse", "request": pending[0]["number"]})
        joiner.wait_for(lambda p: any("нет места" in line for line in lines_of(p)))
        said_host, said_joiner = lines_of(host), lines_of(joiner)
        assert "нет места: хозяин отказал вам в месте" in said_joiner, said_joiner
        left = english_in(said_host + said_joiner)
        assert left == [], "\n".join(left)
    finally:
        anna.stop()
        boris.stop()


def test_a_russian_joiner_whose_host_cancels_the_table_reads_it_in_russian(
    tmp_path: Path,
) -> None:
    anna = PlayProcess("Анна", tmp_path / "anna", lang="ru")
    boris = PlayProcess("Борис", tmp_path / "boris", lang="ru")
    try:
        host, joiner = anna.page(), boris.page()
        host.wait_for(lambda p: p.lobby)
        host.send({"type": "host", "table": "Кухня", "rules": "draw", "players": 3, "hands": 1})
        host.wait_for(lambda p: p.lobby.get("host_lobby"))
        joiner.send({"type": "join", "address": f"127.0.0.1:{anna.lan_port}"})
        joiner.wait_for(lambda p: any("занято 2 из 3" in line for line in lines_of(p)))
        host.send({"type": "cancel"})
        joiner.wait_for(lambda p: any("закрыл" in line for line in lines_of(p)))
        said_host, said_joiner = lines_of(host), lines_of(joiner)
        assert "хозяин закрыл соединение: стол закрыт" in said_joiner, said_joiner
        left = english_in(said_host + said_joiner)
        assert left == [], "\n".join(left)
    finally:
        anna.stop()
        boris.stop()
