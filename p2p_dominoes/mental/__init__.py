"""The mental-poker cryptography: pure functions, no I/O."""
