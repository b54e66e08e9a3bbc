"""User interfaces: text narration of a match, the terminal UI, and (later) the web UI."""

from p2p_dominoes.ui.narration import narrate

__all__ = ["narrate"]
