"""One table's signed mDNS ad, registered by `Discovery.advertise`: updated when its seats or
phase change, withdrawn (a signed "closed" record, then goodbyes) when the table is done.

Every ad is signed by the host's key with a sequence number that only grows (`next_seq`), so
browsers believe an update or a close only when it is newer than what they hold. Withdrawing is
shielded and bounded (`SHUTDOWN_BUDGET`): a zeroconf thread swamped by a flood must not keep the
peer from exiting.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import Final, Protocol

import trio
from zeroconf import Error as ZeroconfError
from zeroconf import ServiceInfo, Zeroconf

from p2p_dominoes.net.ad_record import TableInfo
from p2p_dominoes.net.errors import DiscoveryError
from p2p_dominoes.session.identity import Identity
from p2p_dominoes.words import phrase

log = logging.getLogger("p2p_dominoes.net.discovery")

SHUTDOWN_BUDGET: Final = 8.0
"""Seconds the shielded shutdown (closing record, goodbyes, threads) may take: a zeroconf
thread swamped by a flood must not keep the peer from exiting (its threads are abandoned)."""


class Registry(Protocol):
    """What an ad needs of the discovery that registered it (`Discovery`): its zeroconf, the
    signed service record of an ad, and to be told when the ad is withdrawn."""

    @property
    def zc(self) -> Zeroconf:
        """The zeroconf instance the ad is registered with."""

    def service_info(
        self, identity: Identity, info: TableInfo, port: int, label: str, seq: int
    ) -> ServiceInfo:
        """The DNS-SD record of `info`, signed by `identity` with sequence number `seq`."""

    def withdrawn(self, advert: Advertisement) -> None:
        """`advert` is withdrawn: no longer ours to keep or to withdraw at the end."""


def next_seq(previous: int) -> int:
    """A sequence number above ``previous``: the wall clock in ms when it is ahead (so a host
    that restarts a table's ad does not reuse numbers), else ``previous + 1``."""
    return max(previous + 1, time.time_ns() // 1_000_000)


class Advertisement:
    """One registered, signed table ad; update it when seats or phase change; withdraw it
    (a signed "closed" record, then goodbyes) when done."""

    def __init__(
        self,
        discovery: Registry,
        identity: Identity,
        service: ServiceInfo,
        info: TableInfo,
        seq: int,
        label: str,
    ) -> None:
        self._discovery = discovery
        self._identity = identity
        self._service = service
        self._info = info
        self._seq = seq
        self._label = label
        self._withdrawn = False

    @property
    def info(self) -> TableInfo:
        """What is advertised now."""
        return self._info

    @property
    def instance(self) -> str:
        """The full DNS-SD service instance name."""
        return str(self._service.name)

    @property
    def seq(self) -> int:
        """The sequence number of the record announced last."""
        return self._seq

    async def update(
        self,
        *,
        seats_taken: int | None = None,
        seats_total: int | None = None,
        phase: str | None = None,
        table_name: str | None = None,
        player_name: str | None = None,
        rules: str | None = None,
    ) -> None:
        """Re-announce, signed with a higher sequence number, with the given fields changed.

        The table id and fingerprint (and so the instance name) never change. A failure to
        announce is logged, not raised: the table goes on, discovery is best effort.
        """
        if self._withdrawn:
            raise DiscoveryError(phrase("net.why.ad_withdrawn"))
        now = self._info
        info = replace(
            now,
            seats_taken=now.seats_taken if seats_taken is None else seats_taken,
            seats_total=now.seats_total if seats_total is None else seats_total,
            phase=now.phase if phase is None else phase,
            table_name=now.table_name if table_name is None else table_name,
            player_name=now.player_name if player_name is None else player_name,
            rules=now.rules if rules is None else rules,
        )
        await self._announce(info)

    async def _announce(self, info: TableInfo) -> None:
        seq = next_seq(self._seq)
        port = self._service.port
        assert port is not None
        service = self._discovery.service_info(self._identity, info, port, self._label, seq)
        try:
            await trio.to_thread.run_sync(
                self._discovery.zc.update_service, service, abandon_on_cancel=True
            )
        except (ZeroconfError, OSError, RuntimeError) as exc:
            log.warning("could not re-announce %r: %s", self.instance, exc)
        self._service, self._info, self._seq = service, info, seq

    async def withdraw(self) -> None:
        """Announce a signed "closed" record, then send goodbyes (shielded: completes even
        when cancelled, within ``SHUTDOWN_BUDGET``). Browsers drop the table on the signed
        record; a bare goodbye would only make them ask again. Idempotent."""
        if self._withdrawn:
            return
        with trio.CancelScope(shield=True, deadline=trio.current_time() + SHUTDOWN_BUDGET):
            try:
                await self._announce(replace(self._info, phase="closed"))
            finally:
                self._withdrawn = True
                try:
                    await trio.to_thread.run_sync(
                        self._discovery.zc.unregister_service,
                        self._service,
                        abandon_on_cancel=True,
                    )
                except (ZeroconfError, OSError, RuntimeError) as exc:
                    log.warning("could not withdraw %r: %s", self.instance, exc)
        self._discovery.withdrawn(self)
