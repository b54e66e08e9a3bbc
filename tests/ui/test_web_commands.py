"""Whatever JSON a page sends, the controller refuses it clearly or does exactly what it says.

Hypothesis throws arbitrary JSON (wrong types, lists for strings, huge numbers, deep nesting) at
the socket's parser and at the controller's command handling; the tables a valid command would
start are recorded, not run, and their settings checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import trio
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_dominoes.engine import DRAW, PASS, PRESETS, Line, Play, parse_tile
from p2p_dominoes.net import Target
from p2p_dominoes.session import Identity
from p2p_dominoes.session.hand_messages import MAX_HANDS
from p2p_dominoes.ui.web import Hub, PlayController, parse_command
from p2p_dominoes.ui.web.page_commands import action_from, host_settings, join_target

IDENTITY = Identity.generate()
KINDS = ["play", "draw", "pass", "skip", "record", "lobby", "host", "rematch", "join", "review"]
KINDS += ["go_on", "leave"]  # v4 (issue 29)
FIELDS = [
    "table",
    "rules",
    "players",
    "bots",
    "hands",
    "address",
    "fingerprint",
    "tile",
    "end",
    "hand",
    "answer",
]

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=40)
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
plausible = st.sampled_from(
    [
        2,
        3,
        4,
        0,
        1,
        -1,
        5,
        100,
        MAX_HANDS + 1,
        "draw",
        "block",
        "3",
        "127.0.0.1:1",
        "[::1]:1",
        "lead",
        parse_tile("3|5").key,
    ]
)
commands = st.fixed_dictionaries(
    {"type": st.sampled_from(KINDS) | json_values},
    optional={name: plausible | json_values for name in FIELDS},
)


class Recorder:
    """Stands in for the controller's nursery: what a command would start, not started."""

    def __init__(self) -> None:
        self.started: list[Any] = []

    def start_soon(self, function: Any, *args: Any) -> None:
        self.started.append((function, args))


def run_commands(sent: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Recorder]:
    async def main() -> tuple[list[dict[str, Any]], Recorder]:
        hub = Hub()
        page = hub.subscribe("fuzz")
        controller = PlayController(IDENTITY, "Ann", "en", hub, mdns=False)
        recorder = Recorder()
        for command in sent:
            controller.busy = False
            await controller._command(command, recorder)  # type: ignore[arg-type]
        received = []
        while True:
            try:
                received.append(page.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                return received, recorder

    return trio.run(main)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, min_size=1, max_size=6))
def test_arbitrary_json_commands_are_refused_or_carried_out_with_valid_settings(
    sent: list[dict[str, Any]],
) -> None:
    received, recorder = run_commands(sent)
    for message in received:
        assert message["type"] in ("refused", "state"), message
        json.dumps(message)  # everything the page gets is JSON
    for _, (run, *_scope) in recorder.started:
        what = run.args[0]
        if isinstance(what, dict):  # a table to host
            assert isinstance(what["table"], str) and what["table"].isprintable()
            assert isinstance(what["rules"], str) and what["rules"] in PRESETS
            assert type(what["players"]) is int and 2 <= what["players"] <= 4
            assert type(what["bots"]) is int and 0 <= what["bots"] < what["players"]
            assert what["hands"] is None or (
                type(what["hands"]) is int and 1 <= what["hands"] <= MAX_HANDS
            )
        else:  # a table to join
            assert isinstance(what, Target)
            assert all(isinstance(h, str) and h.isascii() for h in what.addresses)
            assert 1 <= what.port <= 65535


def test_the_commands_that_crashed_play_are_refused() -> None:
    received, recorder = run_commands(
        [
            {"type": "host", "rules": [], "players": 2},
            {"type": "host", "rules": {}, "players": 2},
            {"type": "host", "table": ["x"], "players": 2},
            {"type": "join", "address": "a\x00b:80"},
            {"type": "join", "address": "x" * 70 + ".example:80"},
            {"type": "join", "address": "127.0.0.1:80", "fingerprint": ["A"]},
            {"type": ["host"]},
            {"type": "no-such-command"},
            # v4: no table here, so nothing to answer and nothing to leave; a non-boolean answer
            {"type": "go_on", "answer": True},
            {"type": "go_on", "answer": "yes"},
            {"type": "go_on", "answer": 1},
            {"type": "go_on"},
            {"type": "leave"},
        ]
    )
    assert not recorder.started
    refusals = [m for m in received if m["type"] == "refused"]
    assert len(refusals) == 13, received
    texts = [m.get("text", m.get("reason")) for m in refusals[-5:]]
    assert texts[0] == "There is no question to answer now.", refusals[-5:]
    assert texts[1:4] == ["The answer must be yes or no."] * 3, refusals[-5:]
    assert texts[4] == "You cannot leave the table now.", refusals[-5:]


class StubView:
    def legal_plays(self) -> list[Play]:
        return [Play(parse_tile("3|5"))]

    def can_draw(self) -> bool:
        return True

    def can_pass(self) -> bool:
        return False

    def can_skip(self) -> bool:
        return False


@settings(max_examples=300, deadline=None)
@given(commands)
def test_a_page_move_is_a_legal_action_or_nothing(command: dict[str, Any]) -> None:
    lead = StubView().legal_plays()[0]
    action = action_from(command, StubView(), Line())  # type: ignore[arg-type]
    assert action in (None, DRAW, PASS, lead)
    assert host_settings(command) is None or isinstance(host_settings(command), dict)
    assert join_target(command) is None or isinstance(join_target(command), Target)


deep = st.integers(min_value=1, max_value=5000).map(lambda n: "[" * n + "]" * n)
long_numbers = st.integers(min_value=1, max_value=5000).map(
    lambda n: '{"type": "host", "x": ' + "9" * n + "}"
)


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=200)
    | st.binary(max_size=50)
    | deep
    | long_numbers
    | json_values.map(json.dumps)
)
def test_the_socket_parser_takes_any_text_and_never_raises(text: Any) -> None:
    command, problem = parse_command(text)
    if command is None:
        assert problem
    else:
        assert isinstance(command, dict) and isinstance(command["type"], str) and not problem


@pytest.mark.parametrize(("lang", "said"), [("en", ": not JSON"), ("ru", ": это не JSON")])
def test_a_damaged_saved_rule_set_is_refused_in_the_pages_language(
    lang: str, said: str, tmp_path: Path
) -> None:
    """The store's reason (a `Phrase`) is read again in the page's language."""
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "kitchen.json").write_text("{not json", encoding="utf-8")

    async def main() -> list[dict[str, Any]]:
        hub = Hub()
        page = hub.subscribe("damaged")
        controller = PlayController(IDENTITY, "Ann", lang, hub, mdns=False, data_dir=tmp_path)
        recorder = Recorder()
        command = {"type": "host", "rules": "kitchen", "players": 2}
        await controller._command(command, recorder)  # type: ignore[arg-type]
        assert not recorder.started
        received = []
        while True:
            try:
                received.append(page.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                return received

    refusals = [m for m in trio.run(main) if m["type"] == "refused"]
    assert len(refusals) == 1, refusals
    text = refusals[0].get("text", refusals[0].get("reason"))
    assert text.endswith(f"kitchen.json{said}"), text
