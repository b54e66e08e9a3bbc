"""Audit: an honest hand gives every tile; the first failing message is named with its seat."""

from __future__ import annotations

import dataclasses

from p2p_dominoes.mental.audit import HandRecord, audit
from p2p_dominoes.mental.group import G, L, sub
from p2p_dominoes.mental.secret_reveal import reveal_secret
from p2p_dominoes.mental.shares import open_position
from p2p_dominoes.mental.tile_reveal import reveal_tile
from p2p_dominoes.mental.tiles import point_to_tile
from tests.mental.conftest import Hand, build_hand


def _record(hand: Hand) -> HandRecord:
    seats = hand.ctx.seats
    shares, reveals = [], []
    for owner in range(seats):
        for position in (2 * owner, 2 * owner + 1):
            mine = [hand.share(s, position) for s in range(seats) if s != owner]
            shares.extend(mine)
            keys = hand.keys[owner]
            tile = open_position(hand.ctx, keys, hand.joint, hand.final, position, mine)
            reveals.append(reveal_tile(hand.ctx, keys, hand.final, position, tile))
    return HandRecord(
        ctx=hand.ctx,
        commits=tuple(k.commit for k in hand.keys),
        reveals=tuple(k.reveal for k in hand.keys),
        shuffles=hand.steps,
        shares=tuple(shares),
        tile_reveals=tuple(reveals),
        secrets=tuple(reveal_secret(k) for k in hand.keys),
    )


def test_honest_hand_audits_to_every_tile() -> None:
    hand = build_hand(3)
    report = audit(_record(hand))
    assert report.ok and report.tiles is not None
    x = sum(k.secret.value for k in hand.keys) % L
    expected = [point_to_tile(sub(c.c2.raw, c.c1.mul(x).raw)) for c in hand.final.cards]
    assert list(report.tiles) == expected
    assert sorted(report.tiles) == list(range(28))


def test_first_failure_is_named() -> None:
    hand = build_hand(3)
    record = _record(hand)
    bad_share = dataclasses.replace(record.shares[3], share=record.shares[3].share + G)
    lie = record.tile_reveals[1]
    bad_reveal = dataclasses.replace(lie, tile=(lie.tile + 1) % 28)
    sec, shuf = record.secrets, record.shuffles
    edit = dataclasses.replace
    cases = [
        (edit(record, secrets=sec[:2]), 2, "secret"),
        (edit(record, secrets=(sec[0], sec[0], sec[2])), 1, "secret"),
        (edit(record, tile_reveals=(record.tile_reveals[0], bad_reveal)), lie.seat, "tile reveal"),
        (edit(record, shares=(*record.shares[:3], bad_share)), bad_share.seat, "share"),
        (edit(record, shuffles=shuf[:2]), 2, "shuffle"),
        (edit(record, shuffles=(shuf[0], shuf[0], shuf[2])), 0, "shuffle"),
        (edit(record, reveals=record.reveals[:1]), 1, "key reveal"),
    ]
    for broken, seat, step in cases:
        report = audit(broken)
        assert not report.ok and report.tiles is None and report.failure is not None
        assert report.failure.seat == seat, (step, report.failure)
        assert step in report.failure.step, (step, report.failure)
