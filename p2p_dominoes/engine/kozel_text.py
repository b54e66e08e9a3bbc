"""Kozel in words: pairs named by their players ("Ann & Cid"), what each hand wrote for "us and
them", the ceremonies that triggered, and the goat pair with its title (Russian and English;
the words are the catalogues', keys ``engine.kozel.*``)."""

from __future__ import annotations

from collections.abc import Sequence

from p2p_dominoes import words
from p2p_dominoes.engine.ceremonies import ceremony_text, title_text
from p2p_dominoes.engine.scoring import HandEnd, HandResult, MatchOutcome


def _language(lang: str) -> str:
    return "ru" if lang.startswith("ru") else "en"


def _named_pair(pair: int, names: Sequence[str]) -> bool:
    return len(names) == 4 and bool(names[pair]) and bool(names[pair + 2])


def pair_name(pair: int, names: Sequence[str] = (), lang: str = "en") -> str:
    """Pair 0 is seats 0 and 2, pair 1 seats 1 and 3: "Ann & Cid", else "seats 1 & 3"."""
    first, second = pair, pair + 2
    if _named_pair(pair, names):
        return f"{names[first]} & {names[second]}"
    return words.line("engine.kozel.seats", _language(lang), first=first + 1, second=second + 1)


def pair_names(names: Sequence[str], lang: str = "en") -> tuple[str, str]:
    """Both pairs' names, pair 0 first."""
    return pair_name(0, names, lang), pair_name(1, names, lang)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cap_pair(text: str, pair: int | None, names: Sequence[str], lang: str) -> str:
    """`text`, which starts with `pair`'s name (or, for None, "the losers"), capitalised when
    that name is the stand-in "seats 1 & 3" (a players' name stays as it is)."""
    if pair is not None and _named_pair(pair, names):
        return text
    lead = pair_name(pair, names, lang) if pair is not None else _losers(lang)
    return _capital(text) if text.startswith(lead) else text


def _losers(lang: str) -> str:
    return words.line("engine.kozel.losers", _language(lang))


def _seat(seat: int, names: Sequence[str], lang: str) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return words.line("engine.seat", _language(lang), seat=seat + 1)


def pairs_result_text(
    result: HandResult, lang: str = "en", names: Sequence[str] = (), seat: int | None = None
) -> str:
    """A Kozel hand in words: who went out (or the fish's pair totals), which pair records
    what (both partners' pips), an amount under the minimum not written, and the ceremonies.
    A fish's totals: read by `seat`, in its sheet's order (Us / Them, us first, each named);
    with no reader (the log, the record), the named pair's total first (issue 28 L8)."""
    language = _language(lang)
    pairs = pair_names(names, lang)
    seat_pips = result.seat_pips
    if result.end is HandEnd.DOMINO and result.closer is not None:
        closer = _seat(result.closer, names, lang)
        head = words.line(
            "engine.kozel.domino", language, closer=closer, pair=pairs[result.closer % 2]
        )
    else:
        totals = f"{result.pips[0]} : {result.pips[1]}"
        if result.winner is None:
            head = words.line("engine.kozel.fish_equal", language, totals=totals)
        else:
            totals = _fish_totals(result.pips, result.winner, seat, language)
            head = words.line(
                "engine.kozel.fish", language, pair=pairs[result.winner], totals=totals
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
        key = "engine.kozel.record" if result.points[pair] else "engine.kozel.not_written"
        parts.append(words.line(key, language, pair=pairs[pair], sum=sum_text))
    if result.end is HandEnd.DOMINO and not any(amounts):
        parts.append(words.line("engine.nobody_records", language))
    text = "; ".join(parts) + "."
    return text + ceremonies_text(result, lang, names)


def _fish_totals(pips: Sequence[int], winner: int, seat: int | None, language: str) -> str:
    """Both pairs' totals in a fish: "us 27 : them 7" from a reader's seat (the sheet's
    columns), else "7 against 27", the smaller (the named winners') first."""
    if seat is None:
        return words.line(
            "engine.kozel.fish_neutral", language, winner=pips[winner], other=pips[1 - winner]
        )
    return words.line(
        "engine.kozel.fish_sided", language, us=pips[seat % 2], them=pips[1 - seat % 2]
    )


def ceremonies_text(result: HandResult, lang: str = "en", names: Sequence[str] = ()) -> str:
    """ " Admiral: …; Bob & Dan are the admirals." — the ceremonies a hand triggered, the losers'
    title, and the winner's wipe (empty when none triggered)."""
    if not result.ceremonies or result.title is None:
        return ""
    language = _language(lang)
    said = "; ".join(ceremony_text(name, lang) for name in result.ceremonies)
    winner = result.winner
    loser = None if winner is None or not result.seat_pips else 1 - winner
    losers = _cap_pair(
        pair_name(loser, names, lang) if loser is not None else _losers(lang), loser, names, lang
    )
    title = title_text(result.title, lang)
    text = " " + words.line("engine.kozel.titled", language, said=said, losers=losers, title=title)
    if result.winner_reset and winner is not None:
        who = pair_name(winner, names, lang) if result.seat_pips else _seat(winner, names, lang)
        text += " " + words.line("engine.kozel.wiped", language, who=who)
    return text


def pairs_match_text(
    outcome: MatchOutcome, scores: Sequence[int], lang: str = "en", names: Sequence[str] = ()
) -> str:
    """ "Us and them" after a hand, and at the end the goat pair with its title."""
    language = _language(lang)
    pairs = pair_names(names, lang)
    listed = ", ".join(f"{pairs[p]} {scores[p]}" for p in range(2))
    if not outcome.over:
        return words.line("engine.match.scores", language, listed=listed)
    lost = ""
    title = title_text(outcome.title or "goat", lang)
    for pair in outcome.losers:
        lost += words.line("engine.kozel.reached", language, pair=pairs[pair], title=title) + " "
    if outcome.losers:
        lost = _cap_pair(lost, outcome.losers[0], names, lang)
    if outcome.winner is None:
        return lost + words.line("engine.match.drawn", language, listed=listed)
    won = words.line("engine.kozel.won", language, pair=pairs[outcome.winner], listed=listed)
    return lost + _cap_pair(won, outcome.winner, names, lang)
