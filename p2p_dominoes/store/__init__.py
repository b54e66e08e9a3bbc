"""Persistence: identity keys and transcript files. This layer does the file I/O."""

from p2p_dominoes.store.identity_file import (
    IDENTITY_FILE_NAME,
    IdentityFileError,
    load_identity_file,
    load_or_create_identity,
    write_identity_file,
)
from p2p_dominoes.store.transcript_file import (
    MAX_TRANSCRIPT_FILE_SIZE,
    load_transcript,
    save_transcript,
)

__all__ = [
    "IDENTITY_FILE_NAME",
    "MAX_TRANSCRIPT_FILE_SIZE",
    "IdentityFileError",
    "load_identity_file",
    "load_or_create_identity",
    "load_transcript",
    "save_transcript",
    "write_identity_file",
]
