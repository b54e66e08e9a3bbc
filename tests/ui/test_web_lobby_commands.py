"""The host's answers from the page (approve, refuse, remove): checked, then passed on as is.

Arbitrary JSON in those commands reaches the lobby only as a well-formed answer (an int request
or seat number); anything else, or an answer with no table waiting, is refused with a message.
The pending requests the page is shown are JSON with the names as the lobby cleaned them.
"""

from __future__ import annotations

import json
from typing import Any

import trio
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_dominoes.net.admission import Admission, LobbySeat, LobbyState, Request
from p2p_dominoes.session import Identity
from p2p_dominoes.ui.web import Hub, PlayController
from p2p_dominoes.ui.web.lobby_rows import host_lobby_snapshot

IDENTITY = Identity.generate()
values = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=10)
    | st.lists(st.integers(), max_size=2)
)
answers = st.fixed_dictionaries(
    {"type": st.sampled_from(["approve", "refuse", "remove"])},
    optional={"request": values, "seat": values},
)


class Control:
    """Records the answers the lobby would be given."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []

    def approve(self, number: int) -> bool:
        self.calls.append(("approve", number))
        return True

    def refuse(self, number: int) -> bool:
        self.calls.append(("refuse", number))
        return True

    def remove(self, seat: int) -> bool:
        self.calls.append(("remove", seat))
        return seat == 1


def send(sent: list[dict[str, Any]], control: Control | None) -> list[dict[str, Any]]:
    async def main() -> list[dict[str, Any]]:
        hub = Hub()
        page = hub.subscribe("test")
        controller = PlayController(IDENTITY, "Ann", "en", hub, mdns=False)
        controller.busy = True  # a table is being hosted
        controller.lobby_control = control
        for command in sent:
            await controller._command(command, None)  # type: ignore[arg-type]
        received = []
        while True:
            try:
                received.append(page.receive_nowait())
            except (trio.WouldBlock, trio.EndOfChannel):
                return received

    return trio.run(main)


@settings(max_examples=300, deadline=None)
@given(answers)
def test_an_answer_reaches_the_lobby_only_when_well_formed(command: dict[str, Any]) -> None:
    control = Control()
    received = send([command], control)
    field = "seat" if command["type"] == "remove" else "request"
    number = command.get(field)
    if type(number) is int and 0 <= number < 1_000_000:
        assert control.calls == [(command["type"], number)]
    else:
        assert control.calls == []
        assert [m["text"] for m in received if m["type"] == "refused"] == [
            "That answer is not valid."
        ]


def test_answers_with_no_table_waiting_or_for_a_gone_request_are_refused() -> None:
    received = send([{"type": "approve", "request": 1}], None)
    assert [m["text"] for m in received if m["type"] == "refused"] == [
        "No table is waiting for players."
    ]
    control = Control()
    received = send([{"type": "remove", "seat": 2}, {"type": "remove", "seat": 1}], control)
    assert [m["text"] for m in received if m["type"] == "refused"] == [
        "That request or seat is gone."
    ]
    assert control.calls == [("remove", 2), ("remove", 1)]


def test_the_page_sees_seats_and_requests_as_json_with_cleaned_names() -> None:
    admission = Admission(ask=True, clock=lambda: 50.0)
    bob = Identity.generate().public
    request = admission.request(bob, "Bob\x1b[2J\u202e", "[fe80::1%eth0]:4", seats_free=1,
                                seated=False)  # fmt: skip
    assert isinstance(request, Request)
    state = LobbyState(
        "Friday", 3, (LobbySeat(0, "Ann", IDENTITY.public.fingerprint, False),), (request,)
    )
    shown = host_lobby_snapshot(state, now=60.0)
    assert shown is not None
    json.dumps(shown)
    assert shown["pending"] == [
        {
            "number": request.number,
            "name": "Bob[2J",
            "fingerprint": bob.fingerprint,
            "short": bob.short_fingerprint,
            "source": "fe80::/64",
            "seconds": 110,
        }
    ]
    assert shown["seats"][0] == {
        "seat": 0,
        "name": "Ann",
        "fingerprint": IDENTITY.public.fingerprint,
        "bot": False,
    }
    assert host_lobby_snapshot(None, 0.0) is None
