"""Kozel in words: pairs named by their players ("Ann & Cid"), what each hand wrote for "us and
them", the ceremonies that triggered, and the goat pair with its title (Russian and English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from p2p_dominoes.engine.ceremonies import ceremony_text, title_text
from p2p_dominoes.engine.scoring import HandEnd, HandResult, MatchOutcome


def _ru(lang: str) -> bool:
    return lang.startswith("ru")


def pair_name(pair: int, names: Sequence[str] = (), lang: str = "en") -> str:
    """Pair 0 is seats 0 and 2, pair 1 seats 1 and 3: "Ann & Cid", else "seats 1 & 3"."""
    first, second = pair, pair + 2
    if len(names) == 4 and names[first] and names[second]:
        return f"{names[first]} & {names[second]}"
    if _ru(lang):
        return f"места {first + 1} и {second + 1}"
    return f"seats {first + 1} & {second + 1}"


def pair_names(names: Sequence[str], lang: str = "en") -> tuple[str, str]:
    """Both pairs' names, pair 0 first."""
    return pair_name(0, names, lang), pair_name(1, names, lang)


def _cap(text: str) -> str:
    """The stand-in "seats 1 & 3" capitalised at a sentence's start (a name stays as it is)."""
    if text.startswith(("seats ", "места ", "the ", "проигравшие")):
        return text[:1].upper() + text[1:]
    return text


def _seat(seat: int, names: Sequence[str], lang: str) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return f"место {seat + 1}" if _ru(lang) else f"seat {seat + 1}"


def pairs_result_text(
    result: HandResult, lang: str = "en", names: Sequence[str] = (), seat: int | None = None
) -> str:
    """A Kozel hand in words: who went out (or the fish's pair totals), which pair records
    what (both partners' pips), an amount under the minimum not written, and the ceremonies.
    A fish's totals: read by `seat`, in its sheet's order (Us / Them, us first, each named);
    with no reader (the log, the record), the named pair's total first (issue 28 L8)."""
    ru = _ru(lang)
    pairs = pair_names(names, lang)
    seat_pips = result.seat_pips
    if result.end is HandEnd.DOMINO and result.closer is not None:
        closer = _seat(result.closer, names, lang)
        head = (
            f"Домино: {closer} ({pairs[result.closer % 2]}) выкладывает последнюю кость"
            if ru
            else f"Domino by {closer} ({pairs[result.closer % 2]})"
        )
    else:
        totals = f"{result.pips[0]} : {result.pips[1]}"
        if result.winner is None:
            head = (
                f"Рыба: суммы пар равны ({totals}), никто не записывает"
                if ru
                else f"Fish: the pair totals are equal ({totals}), nobody records"
            )
        else:
            totals = _fish_totals(result.pips, result.winner, seat, ru)
            head = (
                f"Рыба: у пары {pairs[result.winner]} сумма меньше ({totals})"
                if ru
                else f"Fish: {pairs[result.winner]} have the smaller pair total ({totals})"
            )
    parts = [head]
    amounts = result.amounts or result.points
    for pair, amount in enumerate(amounts):
        if not amount:
            continue
        if len(seat_pips) == 4:
            sum_text = f"{seat_pips[pair]} + {seat_pips[pair + 2]} = {amount}"
        else:
            sum_text = str(amount)
        if result.points[pair]:
            parts.append(
                f"{pairs[pair]} записывают {sum_text}" if ru else f"{pairs[pair]} record {sum_text}"
            )
        else:
            parts.append(
                f"{pairs[pair]}: {sum_text} — не пишут, меньше 13"
                if ru
                else f"{pairs[pair]}: {sum_text} — not written, under 13"
            )
    if result.end is HandEnd.DOMINO and not any(amounts):
        parts.append("никто ничего не записывает" if ru else "nobody records anything")
    text = "; ".join(parts) + "."
    return text + ceremonies_text(result, lang, names)


_FISH: Final = {
    True: ("{} против {}", "мы {} : они {}"),
    False: ("{} against {}", "us {} : them {}"),
}
"""A fish's two totals in words (Russian, English): with no reader, and from a reader's side."""


def _fish_totals(pips: Sequence[int], winner: int, seat: int | None, ru: bool) -> str:
    """Both pairs' totals in a fish: "us 27 : them 7" from a reader's seat (the sheet's
    columns), else "7 against 27", the smaller (the named winners') first."""
    neutral, sided = _FISH[ru]
    if seat is None:
        return neutral.format(pips[winner], pips[1 - winner])
    return sided.format(pips[seat % 2], pips[1 - seat % 2])


def ceremonies_text(result: HandResult, lang: str = "en", names: Sequence[str] = ()) -> str:
    """ " Admiral: …; Bob & Dan are the admirals." — the ceremonies a hand triggered, the losers'
    title, and the winner's wipe (empty when none triggered)."""
    if not result.ceremonies or result.title is None:
        return ""
    ru = _ru(lang)
    said = "; ".join(ceremony_text(name, lang) for name in result.ceremonies)
    winner = result.winner
    losers = (
        "" if winner is None else _loser_name(1 - winner if result.seat_pips else None, names, lang)
    )
    title = title_text(result.title, lang)
    if ru:
        text = f" {said}. {_cap(losers or 'проигравшие')} — «{title}»."
    else:
        text = f" {said}. {_cap(losers or 'the losers')} are the {title}."
    if result.winner_reset and winner is not None:
        who = pair_name(winner, names, lang) if result.seat_pips else _seat(winner, names, lang)
        text += (
            f" Победитель обнуляется: счёт {who} — 0."
            if ru
            else f" The winner's score is wiped: {who} now have 0."
        )
    return text


def _loser_name(pair: int | None, names: Sequence[str], lang: str) -> str:
    return "" if pair is None else pair_name(pair, names, lang)


def pairs_match_text(
    outcome: MatchOutcome, scores: Sequence[int], lang: str = "en", names: Sequence[str] = ()
) -> str:
    """ "Us and them" after a hand, and at the end the goat pair with its title."""
    ru = _ru(lang)
    pairs = pair_names(names, lang)
    listed = ", ".join(f"{pairs[p]} {scores[p]}" for p in range(2))
    if not outcome.over:
        return f"Счёт: {listed}." if ru else f"Scores: {listed}."
    lost = ""
    title = title_text(outcome.title or "goat", lang)
    for pair in outcome.losers:
        if ru:
            lost += f"{pairs[pair]} доходят до цели — «{title}». "
        else:
            lost += f"{pairs[pair]} reached the target: the {title}. "
    lost = _cap(lost)
    if outcome.winner is None:
        return lost + (
            f"Матч окончен вничью: {listed}." if ru else f"The match is drawn: {listed}."
        )
    if ru:
        return lost + f"Матч выигрывают {pairs[outcome.winner]}: {listed}."
    return lost + f"{_cap(pairs[outcome.winner])} win the match: {listed}."
