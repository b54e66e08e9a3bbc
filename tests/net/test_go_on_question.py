"""v4 (issue 29): the terminal's question whether the table goes on without a seat that left:
its answers in either language, and what `TextUI.ask_go_on` prints and returns."""

from __future__ import annotations

import trio

from p2p_dominoes.ui.terminal import go_on_answer
from p2p_dominoes.ui.text import TextUI


def test_yes_and_no_in_either_language() -> None:
    for text in ("y", "yes", " Y ", "д", "да"):
        assert go_on_answer(text) is True, text
    for text in ("n", "no", "н", "нет"):
        assert go_on_answer(text) is False, text
    for text in ("", "maybe", "1", "leave"):
        assert go_on_answer(text) is None, text


async def _asked(lang: str, typed: list[str], close: bool = False) -> tuple[bool, list[str]]:
    send, lines = trio.open_memory_channel[str](16)
    shown: list[str] = []
    ui = TextUI(lang, lines=lines, out=shown.append)
    for text in typed:
        await send.send(text)
    if close:
        await send.aclose()
    answer = await ui.ask_go_on("Bob", "Bob (bot)", 20.0)
    return answer, shown


async def test_the_question_is_one_line_and_takes_y_or_n() -> None:
    answer, shown = await _asked("en", ["what", "y"])
    assert answer is True
    assert shown[0] == (
        "Bob has left the table. Go on with a bot in their seat (Bob (bot))? [y/n] "
        "(no answer in 20 s counts as no)"
    )
    assert shown[1] == "Type y to go on with the bot, or n to stop here."
    answer, shown = await _asked("en", ["n"])
    assert answer is False and len(shown) == 1


async def test_in_russian_and_with_no_input_left() -> None:
    answer, shown = await _asked("ru", ["да"])
    assert answer is True
    assert shown[0].startswith("Bob ушёл(ушла) из-за стола. Продолжить с ботом")
    answer, _ = await _asked("ru", [], close=True)
    assert answer is False  # standard input closed: no one can say yes
