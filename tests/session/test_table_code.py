"""The table code: word lists, commitments, one code on every seat, and a man in the middle who
cannot make two tables' codes match except by chance."""

from __future__ import annotations

import hashlib
import itertools
import re
import secrets
from collections.abc import Sequence

import pytest

from p2p_dominoes.bots import random_bot
from p2p_dominoes.engine import PRESETS
from p2p_dominoes.session import (
    TABLE_CODE_BYTES,
    TABLE_NONCE_SIZE,
    WORD_LIST_SIZE,
    Envelope,
    Genesis,
    Identity,
    SeatInfo,
    TableCode,
    new_table_nonce,
    opens_commitment,
    seat_commitment,
    table_code,
    transcript_table_code,
    word_lists,
)
from p2p_dominoes.session.local import LocalTable
from tests.session.tables import play_table, rewriting_link
from tests.session.test_table_cheaters import CHEATER, honest_blames

# -- the word lists ------------------------------------------------------------------------------


def _edit_distance(a: str, b: str) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


@pytest.mark.parametrize(
    ("lang", "letters"), [("en", re.compile(r"[a-z]{3,9}")), ("ru", re.compile(r"[а-яё]{2,9}"))]
)
def test_each_list_has_256_distinct_words_easy_to_tell_apart(
    lang: str, letters: re.Pattern[str]
) -> None:
    words = word_lists()[lang]
    assert len(words) == WORD_LIST_SIZE == 256
    assert len(set(words)) == len(words)
    for word in words:
        assert letters.fullmatch(word), word
        assert "ё" not in word  # no ё/е ambiguity in Russian
    for a, b in itertools.combinations(words, 2):
        assert not a.startswith(b) and not b.startswith(a), (a, b)  # no word hides in another
        assert _edit_distance(a, b) >= 2, (a, b)  # one misheard letter is never another word


def test_the_lists_are_aligned_by_position_and_every_byte_has_a_word() -> None:
    lists = word_lists()
    assert set(lists) == {"en", "ru"}
    code = TableCode(bytes([0, 1, 254, 255]))
    assert code.words("en") == (lists["en"][0], lists["en"][1], lists["en"][254], lists["en"][255])
    assert code.words("ru") == (lists["ru"][0], lists["ru"][1], lists["ru"][254], lists["ru"][255])
    assert code.digits == "000-001-254-255"
    assert code.words("fr") == code.words("en")  # an unknown language falls back to English
    assert code.line("ru") == f"{code.text('ru')} / {code.text('en')} ({code.digits})"


# -- commitments and the code --------------------------------------------------------------------


def test_a_commitment_binds_the_nonce_to_the_key() -> None:
    alice, bob = Identity.generate().public, Identity.generate().public
    nonce = new_table_nonce()
    assert len(nonce) == TABLE_NONCE_SIZE and nonce != new_table_nonce()
    commitment = seat_commitment(alice, nonce)
    expected = hashlib.sha256(b"p2p-dominoes v1 seat commitment\0" + alice.raw + nonce).digest()
    assert commitment == expected
    assert opens_commitment(alice, nonce, commitment)
    assert not opens_commitment(bob, nonce, commitment)  # another key cannot claim it
    assert not opens_commitment(alice, new_table_nonce(), commitment)
    assert not opens_commitment(alice, nonce[:31], commitment)
    with pytest.raises(ValueError):
        seat_commitment(alice, b"short")


def test_the_code_is_the_spec_hash_of_the_genesis_and_every_nonce() -> None:
    genesis_hash, nonces = b"\x07" * 32, [b"\x01" * 32, b"\x02" * 32, b"\x03" * 32]
    digest = hashlib.sha256(
        b"p2p-dominoes v1 table code\0" + genesis_hash + b"".join(nonces)
    ).digest()
    assert table_code(genesis_hash, nonces).value == digest[:TABLE_CODE_BYTES]
    assert table_code(genesis_hash, nonces[::-1]) != table_code(genesis_hash, nonces)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_shows_the_same_code_once_all_have_signed(players: int) -> None:
    table = LocalTable.create(
        PRESETS["draw"], [f"p{s}" for s in range(players)], [random_bot] * players
    )
    assert all(s.table_code is None for s in table.sessions)
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    while any(s.table_code is None for s in table.sessions) and table.step():
        pass
    codes = {s.table_code for s in table.sessions}
    assert len(codes) == 1 and None not in codes
    assert transcript_table_code(table.sessions[0].transcript) in codes


def test_a_seat_that_reveals_another_nonce_is_blamed() -> None:
    """The cheater signs a genesis_sign whose nonce does not open its commitment."""
    ids = [Identity.generate() for _ in range(3)]

    def other_nonce(envelope: Envelope) -> tuple[object, ...]:
        return (envelope.field("genesis_hash"), secrets.token_bytes(TABLE_NONCE_SIZE))

    link = rewriting_link(CHEATER, "genesis_sign", ids[CHEATER], other_nonce)
    played = play_table("draw", 3, link=link, identities=ids)
    assert honest_blames(played.table) == {(CHEATER, "bad-nonce")}
    assert all(s.table_code is None for i, s in enumerate(played.sessions) if i != CHEATER)


# -- a man in the middle -------------------------------------------------------------------------

_MATCH_BYTES = 1
"""The statistical checks compare only the first byte of the codes (8 bits, not 32)."""


def _set_up(ids: Sequence[Identity], nonces: Sequence[bytes]) -> LocalTable:
    """A real table (genesis, sessions, genesis_sign exchange) up to the point of the code."""
    table = LocalTable.create(
        PRESETS["draw"],
        [f"p{s}" for s in range(len(ids))],
        [random_bot] * len(ids),
        identities=ids,
        nonces=nonces,
    )
    for seat, session in enumerate(table.sessions):
        table._broadcast(seat, session.start())
    while any(s.table_code is None for s in table.sessions) and table.step():
        pass
    return table


def _short(code: TableCode | None) -> bytes:
    assert code is not None
    return code.value[:_MATCH_BYTES]


def _mitm_attempt(grind: int, *, sees_bobs_nonce_early: bool) -> bool:
    """Mallory sits between Alice (host) and Bob (joiner) with two keys and two tables.

    Table A: Alice hosts, Mallory joins as "Bob" (key m1), committing before Alice's nonce
    exists. Table B: Mallory hosts as "Alice" (key m2) and Bob joins, sending his commitment.
    Mallory finishes table A first, so it knows code A, then grinds its own nonce for table B
    over ``grind`` candidates. Without Bob's nonce it can only guess one; ``sees_bobs_nonce_early``
    models a broken protocol in which Bob revealed before Mallory committed. True when Alice's
    and Bob's codes match.
    """
    alice, bob, m1, m2 = (Identity.generate() for _ in range(4))
    n_m1 = new_table_nonce()  # Mallory's join to Alice: committed before Alice draws hers
    n_alice = new_table_nonce()
    table_a = _set_up([alice, m1], [n_alice, n_m1])
    target = _short(table_a.sessions[0].table_code)  # what Alice's screen shows
    n_bob = new_table_nonce()  # Bob commits in his join; Mallory sees only the commitment
    known_bob = n_bob if sees_bobs_nonce_early else new_table_nonce()  # a guess otherwise
    best = new_table_nonce()
    ids_b, table_id = [m2, bob], secrets.token_bytes(16)
    for _ in range(grind):  # Mallory grinds its nonce for table B (its genesis, its choice)
        candidate = new_table_nonce()
        genesis = _genesis_hash(ids_b, [candidate, known_bob], table_id)
        if table_code(genesis, [candidate, known_bob]).value[:_MATCH_BYTES] == target:
            best = candidate
            break
    table_b = LocalTable.create(
        PRESETS["draw"],
        ["alice", "bob"],
        [random_bot] * 2,
        identities=ids_b,
        nonces=[best, n_bob],
        table_id=table_id,
    )
    for seat, session in enumerate(table_b.sessions):
        table_b._broadcast(seat, session.start())
    while any(s.table_code is None for s in table_b.sessions) and table_b.step():
        pass
    return _short(table_b.sessions[1].table_code) == target  # Bob's screen vs Alice's


def _genesis_hash(ids: Sequence[Identity], nonces: Sequence[bytes], table_id: bytes) -> bytes:
    """The genesis hash Mallory would sign for table B (the genesis signature is deterministic)."""
    seats = [
        SeatInfo(name, i.public, seat_commitment(i.public, n))
        for name, i, n in zip(("alice", "bob"), ids, nonces, strict=True)
    ]
    genesis = Genesis(table_id, PRESETS["draw"].to_wire(), tuple(seats))
    return genesis.sign(ids[0], 0).hash


ATTEMPTS = 200


def test_a_man_in_the_middle_matches_the_codes_only_by_chance() -> None:
    """At 8 bits, chance gives 200/256 ≈ 0.8 matches; grinding 64 nonces must not help."""
    matches = sum(_mitm_attempt(64, sees_bobs_nonce_early=False) for _ in range(ATTEMPTS))
    # Poisson(0.78): P(X ≥ 8) < 1e-5. A grind that worked would give about 44 (1-(255/256)^64).
    assert matches < 8, matches


def test_without_the_commitment_order_the_same_grind_would_win() -> None:
    """The check above has teeth: if Mallory knew Bob's nonce before fixing its own, the same
    64-nonce grind matches the 8-bit codes about 22% of the time (vs 0.4%)."""
    matches = sum(_mitm_attempt(64, sees_bobs_nonce_early=True) for _ in range(ATTEMPTS))
    assert matches > 20, matches  # about 44 expected; P(X ≤ 20) < 1e-5
