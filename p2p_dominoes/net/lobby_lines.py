"""Lines the lobby shows about join codes, a joiner's own fingerprint and a host's refusals.

Words that came from a peer (a refusal's reason) are shown as quoted text attributed to that
peer, cleaned of control characters, so that a hostile host cannot make its words read as ours
("Connected. Fingerprint OK ✔").
"""

from __future__ import annotations

from typing import Final

from p2p_dominoes.net.join_code import join_code_line, join_code_words
from p2p_dominoes.net.lobby import Seats
from p2p_dominoes.net.said import said, said_closed
from p2p_dominoes.peer_text import peer_text, plain_quotes
from p2p_dominoes.session import PublicIdentity
from p2p_dominoes.words import Phrase, reason_in

REFUSED_BECAUSE: Final = frozenset(
    {"full", "refused", "removed", "playing", "unanswered", "seated", "seat", "code"}
)
"""The refusal codes with words of their own (said.py `refused_<code>`)."""


def join_with_lines(address: str, code: bytes | None, lang: str) -> tuple[str, ...]:
    """How others join (and, when the table asks one, the join code and how to give it)."""
    if code is None:
        return (said("join_with", lang, address=address),)
    words = join_code_words(code, lang)
    return (
        said("join_code", lang, code=join_code_line(code, lang)),
        said("join_with_code", lang, address=address, words=words),
    )


def own_fingerprint_line(name: str, key: PublicIdentity, lang: str) -> str:
    """What a joiner waiting for the host's answer compares with the host's screen."""
    return said(
        "compare_request", lang, name=peer_text(name, 64), fingerprint=key.short_fingerprint
    )


def refusal_line(code: str, reason: str, speaker: str, lang: str) -> str:
    """The one line a joiner is told when the host refuses it a seat: our words for `code`,
    and the host's own `reason` quoted and attributed to `speaker` when it says more."""
    key = f"refused_{code}" if code in REFUSED_BECAUSE else "refused_other"
    because = said(key, lang)
    given = plain_quotes(reason)
    if given not in ("", because, said(key, "en")):
        because = said("host_says", lang, because=because, speaker=speaker, given=given)
    tag = "" if lang == "ru" else f" [{peer_text(code, 16)}]"
    return said("no_seat", lang, code=tag, words=because)


def host_speaker(host: PublicIdentity, lobby: Seats | None, lang: str) -> str:
    """Who a host's words are said by: its name from the seat list (cleaned), or its short
    fingerprint before there is one."""
    if lobby is not None and lobby.seats:
        return said("peer_of", lang, name=peer_text(lobby.seats[0].name, 64))
    return said("host_peer", lang, fingerprint=host.short_fingerprint)


_BYE: Final = "peer said bye: "


def closed_line(reason: str, speaker: str, lang: str) -> str:
    """The line when the host closed a joiner's lobby connection: its bye's words (after
    "peer said bye: ") quoted and attributed to `speaker`; our own words (silence, a reset,
    "done") as they are, in `lang` (a `Phrase` from net/connection.py is read again in it)."""
    ours = isinstance(reason, Phrase) and reason.key != "net.why.peer_bye"
    if ours and peer_text(reason, 200) == reason:  # our own words: in the player's language
        return said("host_closed", lang, reason=reason_in(reason, lang))
    reason = peer_text(reason, 200)
    given = reason.removeprefix(_BYE).removeprefix("“").removesuffix("”")  # quoted on arrival
    if given == reason or given == "done":
        return said("host_closed", lang, reason=said_closed(reason, lang))
    return said("host_closed_saying", lang, speaker=speaker, given=plain_quotes(given))
