"""v4 (issue 29): the page's commands about leaving the table: its person's answer to "go on
with a bot in the seat someone left?" ("go_on", with a boolean "answer"), and *Leave the table*
("leave", sent after the page's confirm step). Kept apart from the controller, which is full.
"""

from __future__ import annotations

from typing import Any, Protocol

from p2p_dominoes.ui.web.page_commands import Problem, check_go_on
from p2p_dominoes.ui.web.web_ui import WebUI


class Refuses(Protocol):
    """What these commands need of the controller: its table's UI, and how it refuses."""

    ui: WebUI | None

    def refuse(self, key: str, field: str | None = None, **values: object) -> None:
        """Tell the page one line why a command was refused."""


def go_on(controller: Refuses, command: dict[str, Any]) -> None:
    """The person's answer: go on with a bot in the seat someone left, or not (refused when
    it is not a boolean, or when no question is asked)."""
    answer = check_go_on(command)
    if isinstance(answer, Problem):
        controller.refuse(answer.key)
    elif controller.ui is None or not controller.ui.answer_go_on(answer):
        controller.refuse("no_question")


def leave(controller: Refuses) -> None:
    """The person leaves the table for good: the runtime says our signed goodbye (refused
    when no table is seated here, or it is over)."""
    ui = controller.ui
    if ui is None or ui.session is None or ui.leave is None or not ui.leave():
        controller.refuse("cannot_leave")
