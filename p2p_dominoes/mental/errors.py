"""Exceptions of the mental-poker layer: low-level failures and the one peer-blaming error."""

from __future__ import annotations

from p2p_dominoes.words import Phrase, phrase


class MentalError(Exception):
    """Base class of every error raised by `p2p_dominoes.mental`."""


class EncodingError(MentalError, ValueError):
    """Bytes that do not decode to a valid value (bad length, invalid point, scalar >= L)."""


class GroupError(MentalError):
    """A group operation left the set of valid points (identity result, libsodium refusal)."""


class ProofError(MentalError):
    """A zero-knowledge proof does not verify against its statement."""


class InvalidMessageError(MentalError):
    """This peer's message is invalid: names the culprit seat, the protocol step and why.

    It is the only error the protocol-level functions raise for bad input from a peer; every
    libsodium failure met while checking a peer's message is turned into it.
    """

    def __init__(self, seat: int, step: str, reason: str) -> None:
        super().__init__(phrase("mental.why.seat_at_step", seat=seat + 1, step=step, reason=reason))
        self.seat = seat
        self.step = step
        self.reason = reason

    def __reduce__(self) -> tuple[type[InvalidMessageError], tuple[int, str, str]]:
        # Pickled (sent between processes) from its parts: its one argument is the whole line.
        return type(self), (self.seat, self.step, self.reason)


def message_of(error: BaseException) -> str:
    """What `error` says, for another reason to carry as a value: its `Phrase` when its one
    argument is one (so the outer reason reads it in the same language), else its text."""
    args = error.args
    return args[0] if len(args) == 1 and isinstance(args[0], Phrase) else str(error)
