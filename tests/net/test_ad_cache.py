"""The browser's ad cache (`p2p_dominoes.net.ad_cache`), pure: per-source caps, eviction from the
most crowded source, believed tables that spoofed address records cannot unlist, and the
namesakes `join NAME` chooses among."""

from __future__ import annotations

from dataclasses import replace

from p2p_dominoes.net.ad_cache import (
    BEFORE_FLOOD_SECONDS,
    MAX_ADS_PER_SOURCE,
    MAX_TABLES_KEPT,
    MAX_TABLES_LISTED,
    AdCache,
    Offer,
    TableAd,
)
from p2p_dominoes.net.ad_record import SERVICE_TYPE, TableInfo
from p2p_dominoes.session import Identity

REAL = "10.213.0.1"
ATTACKER = "10.213.0.66"


def _fp(number: int) -> str:
    return Identity.from_private_bytes(number.to_bytes(4, "big") * 8).public.fingerprint


_FINGERPRINTS: dict[int, str] = {}


def _ad(
    number: int,
    *,
    name: str = "Kitchen",
    source: str = REAL,
    confirmed: bool = True,
    seq: int = 1,
    phase: str = "lobby",
) -> TableAd:
    fp = _FINGERPRINTS.setdefault(number, _fp(number + 1))
    info = TableInfo(
        table_id=number.to_bytes(16, "big"),
        table_name=name,
        player_name="Ann",
        fingerprint=fp,
        seats_taken=1,
        seats_total=2,
        rules="draw",
        phase=phase,
    )
    return TableAd(f"t{number}.{SERVICE_TYPE}", info, (source,), 47800, seq, confirmed)


def test_one_address_with_a_thousand_signed_fakes_keeps_a_few_and_hides_nothing() -> None:
    cache = AdCache()
    real = _ad(0, confirmed=False)  # spoofed A records: never confirmed in this browser
    outcomes = [
        cache.offer(_ad(n, name="Kitchen", source=ATTACKER), n / 100) for n in range(1, 1001)
    ]
    assert outcomes.count(Offer.ADDED) == MAX_ADS_PER_SOURCE
    assert outcomes.count(Offer.SOURCE_FULL) == 1000 - MAX_ADS_PER_SOURCE
    assert cache.offer(real, 11.0) is Offer.ADDED
    assert real in cache.tables()
    assert len(cache) == MAX_ADS_PER_SOURCE + 1 and cache.dropped == 1000 - MAX_ADS_PER_SOURCE


def test_a_believed_table_stays_believed_when_spoofed_address_records_contradict_it() -> None:
    cache = AdCache()
    cache.offer(_ad(0), 0.0)
    assert cache.offer(_ad(0, confirmed=False, seq=2), 1.0) is Offer.UPDATED
    (shown,) = cache.tables()
    assert shown.confirmed and shown.seq == 2 and shown.addresses == (REAL,)
    # Signed elsewhere by its key: believed again only when records there confirm it.
    moved = _ad(0, source="10.213.0.2", confirmed=False, seq=3)
    cache.offer(moved, 2.0)
    assert not cache.tables()[0].confirmed


def test_a_full_cache_evicts_from_the_most_crowded_source() -> None:
    cache = AdCache()
    number = 0
    for source in range(MAX_TABLES_KEPT // MAX_ADS_PER_SOURCE):  # 32 addresses, 8 fakes each
        for _ in range(MAX_ADS_PER_SOURCE):
            number += 1
            assert cache.offer(_ad(number, source=f"10.1.0.{source}"), 0.0) is Offer.ADDED
    assert len(cache) == MAX_TABLES_KEPT
    real = _ad(0, confirmed=False)
    assert cache.offer(real, 1.0) is Offer.ADDED  # one of a crowded source's went
    assert len(cache) == MAX_TABLES_KEPT
    assert real in cache.tables(limit=None) and cache.named("Kitchen")[-1] == real
    # 32 sources' first ads fill the list before any second one: 33 sources, 32 rows.
    listed = cache.tables()
    assert len(listed) == MAX_TABLES_LISTED
    assert len({t.source for t in listed}) == MAX_TABLES_LISTED


def test_when_every_source_is_as_crowded_the_tables_seen_first_stay() -> None:
    cache = AdCache(kept=4, per_source=2)
    first = [_ad(n, source=f"10.1.0.{n}") for n in range(4)]
    for ad in first:
        cache.offer(ad, 0.0)
    assert cache.offer(_ad(9, source="10.1.0.9"), 5.0) is Offer.FULL
    assert sorted(t.instance for t in cache.tables()) == sorted(t.instance for t in first)


def test_in_a_full_source_a_believed_ad_displaces_the_newest_doubtful_one() -> None:
    cache = AdCache(per_source=2)
    cache.offer(_ad(1, confirmed=False), 0.0)
    cache.offer(_ad(2, confirmed=False), 1.0)
    assert cache.offer(_ad(3, confirmed=False), 2.0) is Offer.SOURCE_FULL
    assert cache.offer(_ad(4), 3.0) is Offer.ADDED
    assert sorted(t.instance for t in cache.tables()) == [_ad(1).instance, _ad(4).instance]


def test_replays_and_closed_tables_are_refused() -> None:
    cache = AdCache()
    cache.offer(_ad(0, seq=5), 0.0)
    assert cache.offer(_ad(0, seq=4), 1.0) is Offer.REPLAYED
    assert cache.offer(_ad(0, seq=5), 1.0) is Offer.SAME
    assert cache.close(_ad(0).key, 6)
    assert cache.tables() == []
    assert cache.offer(_ad(0, seq=6), 2.0) is Offer.CLOSED
    assert cache.offer(_ad(0, seq=7), 2.0) is Offer.ADDED  # the host opened it again


def test_namesakes_prefer_the_believed_table_seen_before_the_flood() -> None:
    cache = AdCache()
    real = _ad(0, source=REAL)
    cache.offer(real, 0.0)
    for n in range(1, 6):
        cache.offer(_ad(n, source=ATTACKER), BEFORE_FLOOD_SECONDS + n)
    named = cache.named("kitchen ")
    assert len(named) == 6 and named[0] == real
    assert cache.seen_before_the_rest(named) == real
    # The same namesakes all seen at once (a fresh browser in the middle of a flood): no choice.
    fresh = AdCache()
    for n in range(6):
        fresh.offer(_ad(n, source=ATTACKER if n else REAL), n * 0.1)
    assert fresh.seen_before_the_rest(fresh.named("Kitchen")) is None
    # Seen first but never believed (its address records were spoofed from the start): no choice.
    doubtful = AdCache()
    doubtful.offer(_ad(0, confirmed=False), 0.0)
    doubtful.offer(_ad(1, source=ATTACKER), 10.0)
    assert doubtful.seen_before_the_rest(doubtful.named("Kitchen")) is None


def test_tables_in_play_are_not_offered_for_joining_by_name() -> None:
    cache = AdCache()
    cache.offer(_ad(0, phase="playing"), 0.0)
    assert cache.named("Kitchen") == []
    assert replace(_ad(0), seq=1).source == REAL
