"""The «Мы / Они» sheet names a hand «Сдача», as the summary does («Сдача 3 окончена»), not
«Партия» (issue 28 L8)."""

from __future__ import annotations

from p2p_dominoes.engine import HandEnd, preset, score_hand
from p2p_dominoes.ui.web.kozel_sheet import SheetRow, sheet_json


def test_the_sheet_calls_a_hand_what_the_summary_calls_it() -> None:
    rules = preset("kozel")
    result = score_hand(rules, HandEnd.DOMINO, [0, 8, 5, 13], closer=0)
    names = ["Аня", "bot-1", "bot-2", "bot-3"]
    sheet = sheet_json(rules, 0, [SheetRow(1, result, (0, 0))], names, "ru", 4)
    assert sheet is not None
    assert sheet["words"]["hand"] == "Сдача"
    english = sheet_json(rules, 0, [SheetRow(1, result, (0, 0))], names, "en", 4)
    assert english is not None and english["words"]["hand"] == "Hand"
