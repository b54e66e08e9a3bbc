"""Small trio helpers private to the net package."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def unwrap_single_group() -> Iterator[None]:
    """Re-raise a one-exception group from a nursery as that exception.

    Our context managers run background tasks that never raise, so a group leaving their
    nursery holds only the caller's own exception; unwrapping it keeps ``except SomeError``
    in the caller's code working as written.
    """
    try:
        yield
    except BaseExceptionGroup as group:
        if len(group.exceptions) != 1:
            raise
        leaf = group.exceptions[0]
        leaf.__suppress_context__ = True
        raise leaf from leaf.__cause__
