"""A failure's reason is a `Phrase`: the English text it always was (the protocol, the logs and
`verify --json` keep their bytes) and, read again with `reason_in`, the player's language all
through, a mental-poker reason wrapped inside a session's one too."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from p2p_dominoes.mental import Deck, ShuffleStep
from p2p_dominoes.session import Envelope, Identity, InvalidMessage, Phase
from p2p_dominoes.session import hand_messages as msg
from p2p_dominoes.session.messages import default_registry
from p2p_dominoes.session.transcript import read_records
from p2p_dominoes.store import TableLog, TableLogError
from p2p_dominoes.words import Phrase, phrase, reason_in
from tests.session.conftest import NOTE, TABLE_ID, fixed_identity, make_registry
from tests.session.tables import play_table, rewriting_link, send_as
from tests.session.test_envelope import HEAD, note
from tests.session.test_table_cheaters import CHEATER, finish, make_table, run_until

NAMES = sorted((t.name for t in default_registry()), key=len, reverse=True)
TOKENS = re.compile(r"\b(" + "|".join(NAMES) + r")\b")
"""Message type names: protocol tokens, the same in every language."""


def latin_words(text: str) -> list[str]:
    """The words in Latin letters left once the protocol's tokens are taken out."""
    return re.findall(r"[A-Za-z]{2,}", TOKENS.sub("", text))


def swapped(envelope: Envelope) -> tuple[object, ...]:
    """A shuffle whose first two cards changed places after it was proven."""
    data = envelope.field("step")
    assert isinstance(data, bytes)
    step = ShuffleStep.from_bytes(data, envelope.seat)
    cards = list(step.deck.cards)
    changed = dataclasses.replace(step, deck=Deck([cards[1], cards[0], *cards[2:]]))
    return (envelope.field("hand"), changed.to_bytes())


def test_a_tampered_shuffle_proof_reads_in_english_as_before_and_in_russian_throughout() -> None:
    ids = [Identity.generate() for _ in range(3)]
    link = rewriting_link(CHEATER, "shuffle", ids[CHEATER], swapped)
    played = play_table("draw", 3, link=link, identities=ids)
    blame = played.table.sessions[0].blame
    assert blame is not None and blame.code == "bad-proof"
    reason = blame.reason
    assert isinstance(reason, Phrase)
    assert str(reason) == f"shuffle {CHEATER}: shuffle proof does not verify"
    assert (
        reason_in(reason, "ru")
        == f"перемешивание {CHEATER}: доказательство перемешивания не сходится"
    )
    assert str(blame) == f"seat {CHEATER + 1}: {reason}"
    assert blame.said.in_("ru") == f"место {CHEATER + 1}: {reason_in(reason, 'ru')}"


def test_a_message_out_of_turn_reads_in_russian_with_only_the_message_names_left() -> None:
    table, _ = make_table("block", 3)

    def someone_elses_turn(t: object) -> bool:
        others = [s for seat, s in enumerate(table.sessions) if seat != CHEATER]
        return any(s.awaiting_action for s in others) and not table.queue

    run_until(table, someone_elses_turn)
    session = table.sessions[CHEATER]
    assert session.hand is not None
    send_as(table, CHEATER, session._sign(msg.PASS, (session.hand.number,)).encode())
    finish(table)
    honest = next(s for seat, s in enumerate(table.sessions) if seat != CHEATER)
    assert honest.phase is Phase.HALTED and honest.blame is not None
    reason = honest.blame.reason
    english = re.fullmatch(r"pass from seat 2; expected (\w+(?: or \w+)*) from seat (\d)", reason)
    assert english is not None, reason
    wanted, seat = english.groups()
    russian = reason_in(reason, "ru")
    assert (
        russian == f"pass от места 2; ожидалось {wanted.replace(' or ', ' или ')} от места {seat}"
    )
    assert latin_words(russian) == []


def test_a_bad_signature_reads_in_russian_and_the_whole_line_keeps_its_english() -> None:
    envelope = note()
    forged = Envelope(1, TABLE_ID, 1, HEAD, NOTE, envelope.body, bytes(64))
    with pytest.raises(InvalidMessage) as caught:
        forged.verify(fixed_identity("player 1").public)
    refused = caught.value
    assert refused.code == "bad-signature"
    assert str(refused.reason) == "bad signature for seat 2"
    assert str(refused) == "bad signature for seat 2 [bad-signature]"
    assert reason_in(refused.reason, "ru") == "неверная подпись места 2"
    assert refused.said.in_("ru") == "неверная подпись места 2 [bad-signature]"


def test_an_unreadable_transcript_says_so_in_russian() -> None:
    with pytest.raises(InvalidMessage) as caught:
        list(read_records(b"junk that is no transcript", make_registry()))
    assert caught.value.code == "bad-file"
    assert caught.value.reason == "not a p2p-dominoes transcript file"
    assert reason_in(caught.value.reason, "ru") == "это не файл записи p2p-dominoes"


def test_an_unreadable_table_log_names_its_file_in_both_languages(tmp_path: Path) -> None:
    (tmp_path / "table.log").write_bytes(b"junk")
    with pytest.raises(TableLogError) as caught:
        TableLog.open(tmp_path)
    path = tmp_path / "table.log"
    assert str(caught.value) == f"{path}: not a p2p-dominoes table log"
    assert reason_in(caught.value, "ru") == f"{path}: это не журнал стола p2p-dominoes"


def test_an_inner_reason_given_as_text_by_the_system_stays_as_it_is() -> None:
    # Text from elsewhere (here: what the operating system says) is a plain str in a field.
    said = phrase("store.why.cannot_read", path="/x", system="Permission denied")
    assert said.in_("ru") == "/x: не удалось прочитать (Permission denied)"
