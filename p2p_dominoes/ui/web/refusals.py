"""What the page is told when a command is refused: one plain line, in English or Russian.

The words are the catalogues' (``page.refusal.*`` in p2p_dominoes/words/en.po and ru.po); this
module names each refusal's key, so the callers say `refusal("running", lang)`."""

from __future__ import annotations

from typing import Final

from p2p_dominoes.words import line

_KEYS: Final[dict[str, str]] = {
    "no_type": "page.refusal.no_type",
    "failed": "page.refusal.failed",
    "running": "page.refusal.running",
    "settings": "page.refusal.settings",
    "table_name": "page.refusal.table_name",
    "rules": "page.refusal.rules",
    "players": "page.refusal.players",
    "bots": "page.refusal.bots",
    "bot": "page.refusal.bot",
    "hands": "page.refusal.hands",
    "stall_timeout": "page.refusal.stall_timeout",
    "rule_set": "page.refusal.rule_set",
    "address": "page.refusal.address",
    "fingerprint": "page.refusal.fingerprint",
    "join_code": "page.refusal.join_code",
    "seat": "page.refusal.seat",
    "resume_fields": "page.refusal.resume_fields",
    "nothing_to_resume": "page.refusal.nothing_to_resume",
    "no_such_table": "page.refusal.no_such_table",
    "lang": "page.refusal.lang",
    "no_rematch": "page.refusal.no_rematch",
    "unknown": "page.refusal.unknown",
    "answer": "page.refusal.answer",
    "no_desk": "page.refusal.no_desk",
    "gone": "page.refusal.gone",
    "illegal": "page.refusal.illegal",
    "nothing_to_cancel": "page.refusal.nothing_to_cancel",
    "not_paused": "page.refusal.not_paused",
    "cancelled": "page.refusal.cancelled",
    "go_on": "page.refusal.go_on",
    "no_question": "page.refusal.no_question",
    "cannot_leave": "page.refusal.cannot_leave",
    "review": "review.refused.command",
    "no_review": "review.refused.none",
    "reviewing": "review.refused.busy",
}
"""Each refusal's catalogue key (``rule_set`` passes on the rules check's own reason)."""


def refusal(key: str, lang: str, **values: object) -> str:
    """The line for refusal `key` in `lang` ("ru", else English)."""
    return line(_KEYS[key], lang, **values)
