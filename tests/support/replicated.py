"""A master and its replicas from the embedded server binary, for tests of appends that wait for replicas."""

from __future__ import annotations

import time
from pathlib import Path
from types import TracebackType

import redis

from services.redis.embedded import EmbeddedRedis, RedisServerError

SYNC_TIMEOUT_S = 30.0


class ReplicatedRedis:
    """`master` and `replicas` EmbeddedRedis under `base_dir`, each replica following the master."""

    def __init__(self, base_dir: Path, replicas: int = 1) -> None:
        self.master = EmbeddedRedis(Path(base_dir) / "master")
        self.replicas = [EmbeddedRedis(Path(base_dir) / f"replica-{n}") for n in range(replicas)]

    @property
    def url(self) -> str:
        return self.master.url

    def start(self) -> ReplicatedRedis:
        self.master.start()
        try:
            for replica in self.replicas:
                replica.extra_config["replicaof"] = f"{self.master.host} {self.master.port}"
                replica.start()
            self._wait_until_in_sync()
        except BaseException:
            self.kill()
            raise
        return self

    def _wait_until_in_sync(self) -> None:
        deadline = time.monotonic() + SYNC_TIMEOUT_S
        client = redis.Redis(host=self.master.host, port=self.master.port, decode_responses=True)
        try:
            while time.monotonic() < deadline:
                info = client.info("replication")
                online = [v for k, v in info.items() if k.startswith("slave") and isinstance(v, dict)]
                if len([r for r in online if r.get("state") == "online"]) == len(self.replicas):
                    return
                time.sleep(0.05)
        finally:
            client.close()
        raise RedisServerError(f"the replicas did not come online: {info}")

    def stop(self) -> None:
        for server in (*self.replicas, self.master):
            server.stop()

    def kill(self) -> None:
        for server in (*self.replicas, self.master):
            server.kill()

    def __enter__(self) -> ReplicatedRedis:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
