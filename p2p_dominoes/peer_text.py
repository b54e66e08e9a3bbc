"""Text that came from another peer (or the LAN), made safe to show on a terminal, a log or a page.

Names, table names and ``bye`` reasons are chosen by whoever is on the other end. Shown raw,
control characters drive the terminal (escape sequences set the window title or clear the
screen) and bidi overrides reorder what a reader sees (Trojan-Source style). The ranges are
fixed here, not taken from the Unicode database of whichever Python runs; they are a superset
of what a signed text may hold on the wire (``session.schema.Text``, PROTOCOL.md §3), which stays
as specified, so that cleaning for display never changes what the transcript says.
"""

from __future__ import annotations

from typing import Final

FORBIDDEN_RANGES: Final = (
    (0x0000, 0x001F),  # C0 controls (ESC, BEL, CR, LF, …)
    (0x007F, 0x009F),  # DEL and C1 controls (CSI, OSC as single code points)
    (0x061C, 0x061C),  # Arabic letter mark
    (0x200B, 0x200F),  # zero-width space/joiners, LRM, RLM
    (0x2028, 0x202E),  # line/paragraph separators, bidi embeddings and overrides
    (0x2060, 0x2069),  # word joiner, invisible operators, bidi isolates
    (0xFEFF, 0xFEFF),  # zero-width no-break space (BOM)
    (0xFFF9, 0xFFFB),  # interlinear annotation controls
)
"""Code points that never reach a screen from a peer (inclusive ranges)."""


def forbidden_code_point(text: str) -> int | None:
    """The first code point of ``text`` that may not be shown (or a lone surrogate), if any."""
    for char in text:
        point = ord(char)
        if 0xD800 <= point <= 0xDFFF or _forbidden(point):
            return point
    return None


def peer_text(text: object, limit: int = 256) -> str:
    """``text`` fit for display: forbidden code points dropped, at most ``limit`` characters.

    Anything that is not a ``str`` (a decoder gave bytes, a peer sent a number) is shown as
    an empty string rather than its ``repr``; a ``str`` subclass (our own reason, a
    `words.Phrase`) is cleaned as its text. Cutting to ``limit`` happens after cleaning, and a
    cut text ends with an ellipsis, so a reader sees that it was longer.
    """
    if not isinstance(text, str):
        return ""
    kept = "".join(
        char for char in text if not (0xD800 <= ord(char) <= 0xDFFF or _forbidden(ord(char)))
    )
    if len(kept) > limit:
        return kept[: max(limit - 1, 0)] + "…"
    return kept


_QUOTES: Final = str.maketrans({"“": '"', "”": '"', "«": '"', "»": '"', "„": '"'})


def plain_quotes(text: object, limit: int = 200) -> str:
    """``text`` cleaned (:func:`peer_text`) with its own quotation marks made plain, to be set
    inside our quotes (“…”, «…»): a peer cannot close them early and go on as if we spoke."""
    return peer_text(text, limit).translate(_QUOTES)


def quoted(text: object, limit: int = 256) -> str:
    """A peer's words in our quotes (“…”), so that a reader sees where they begin and end: a
    peer cannot make its words pass for ours ("Connected. Fingerprint OK") or close the quote
    early."""
    return f"“{plain_quotes(text, limit)}”"


def _forbidden(point: int) -> bool:
    return any(low <= point <= high for low, high in FORBIDDEN_RANGES)
