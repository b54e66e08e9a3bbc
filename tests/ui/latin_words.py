"""What may stay Latin in a Russian peer line (the lobby's status lines and the table's log,
which net/ and the narration write), for the checks that a Russian player reads no English:
fingerprints, hashes, a command to type, a bot's name, network terms, a rules source's proper
name, and the table code's English words (the code is shown in both languages on purpose)."""

from __future__ import annotations

import re

FINGERPRINT = re.compile(r"[A-Z2-7]{4}(?:-[A-Z2-7]{4}){1,7}")  # full, or short (two groups)
HASH = re.compile(r"\b[0-9a-f]{16,}\b")
KEPT = (
    "p2p-dominoes join --connect",
    "--no-code",
    "--code",
    "bot-1",
    "bot-2",
    "bot-3",
    "mDNS",
    "Pagat",
)
CODE_IN_ENGLISH = re.compile(r" / [a-z ]+ \(")


def without_kept(line: str) -> str:
    """`line` with the parts that may stay Latin blanked out."""
    text = CODE_IN_ENGLISH.sub(" (", HASH.sub(" ", FINGERPRINT.sub(" ", line)))
    for kept in KEPT:
        text = text.replace(kept, " ")
    return text


def english_in(lines: list[str]) -> list[str]:
    """The lines that still hold a Latin word (two letters or more)."""
    return [line for line in lines if re.search(r"[A-Za-z]{2,}", without_kept(line))]
