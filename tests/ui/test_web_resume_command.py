"""The page's `resume` command: offered and carried out only when the player's data directory
holds an unfinished table and nothing else is running; any other field makes it refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.session import Identity
from p2p_dominoes.store import TableLog, table_dir
from p2p_dominoes.ui.web import Hub, PlayController
from tests.store.logs import played_transcript, write_log

IDENTITY = Identity.generate()


class Recorder:
    """Stands in for the controller's nursery: what a command would start, not started."""

    def __init__(self) -> None:
        self.started: list[Any] = []

    def start_soon(self, function: Any, *args: Any) -> None:
        self.started.append((function, args))


def _send(
    data: Path | None, sent: list[dict[str, Any]], *, busy: bool = False
) -> tuple[list[dict[str, Any]], Recorder, PlayController]:
    async def main() -> tuple[list[dict[str, Any]], Recorder, PlayController]:
        hub = Hub()
        page = hub.subscribe("test")
        controller = PlayController(IDENTITY, "Ann", "en", hub, mdns=False, data_dir=data)
        controller._look_for_unfinished()
        controller.busy = busy
        recorder = Recorder()
        for command in sent:
            await controller._command(command, recorder)  # type: ignore[arg-type]
        received = []
        while True:
            try:
                received.append(page.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                return received, recorder, controller

    return trio.run(main)


def _unfinished_data(root: Path) -> Path:
    data = root / "data"
    write_log(table_dir(data, played_transcript().table_id), count=5)
    return data


def test_an_unfinished_table_is_offered_and_resumed(tmp_path: Path) -> None:
    data = _unfinished_data(tmp_path)
    received, recorder, controller = _send(data, [{"type": "resume"}])
    offered = controller.lobby_snapshot()["unfinished"]
    assert offered == {
        "id": played_transcript().table_id.hex(),
        "name": "Kitchen",
        "seat": 2,
        "players": offered["players"],
        "messages": 5,
    }
    assert controller.lobby_snapshot()["unfinished_tables"] == [offered]
    assert not [m for m in received if m.get("type") == "refused"]
    assert len(recorder.started) == 1 and controller.busy


def test_nothing_to_resume_is_refused(tmp_path: Path) -> None:
    received, recorder, controller = _send(tmp_path / "empty", [{"type": "resume"}])
    assert controller.lobby_snapshot()["unfinished"] is None
    assert [m["text"] for m in received if m.get("type") == "refused"] == [
        "There is no unfinished table to resume."
    ]
    assert not recorder.started


def test_a_finished_table_is_not_offered(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_log(table_dir(data, played_transcript().table_id))
    log, _, _ = TableLog.open(table_dir(data, played_transcript().table_id))
    log.finish("over")
    log.close()
    _, recorder, controller = _send(data, [{"type": "resume"}])
    assert controller.lobby_snapshot()["unfinished"] is None and not recorder.started


def test_resume_while_a_table_runs_is_refused(tmp_path: Path) -> None:
    received, recorder, _ = _send(_unfinished_data(tmp_path), [{"type": "resume"}], busy=True)
    assert [m["text"] for m in received if m.get("type") == "refused"] == [
        "A table is already running."
    ]
    assert not recorder.started


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=8).filter(lambda key: key not in ("type", "table")),
        st.none() | st.integers() | st.text(max_size=8),
        min_size=1,
        max_size=3,
    )
)
def test_a_resume_command_with_other_fields_is_refused(extra: dict[str, Any]) -> None:
    received, recorder, _ = _send(None, [{"type": "resume", **extra}])
    assert [m["text"] for m in received if m.get("type") == "refused"] == [
        "A resume command has no other fields."
    ]
    assert not recorder.started
