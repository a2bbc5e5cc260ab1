"""The whole system on one machine, for fault runs: a local cluster of 3 masters each with a replica, two
`arena serve` gateways and two `arena validate` workers, all real processes on loopback, and players who
keep playing through whatever happens to them.

Every acknowledged move is written down (game, version, move id, the fault phase it was acknowledged in),
and every interruption a player met (a socket closed, a gateway that refused, `unavailable`), so a run can
say afterwards which acknowledged moves the store lost, which players came back and how long it took.
bench/bench_faults.py drives the faults and prints the table; tests/gateway/test_faults.py runs a short one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import redis
import redis.cluster

from services.redis.client import parse_redis_url
import msgspec

from services.store.keys import log_key, moves_key, validator_counts_key, verdicts_key
from services.validator.queue import StoredVerdict
from tests.support.processes import ServeProcess
from tests.support.redis_cluster import LocalRedisCluster

SECRET = "fault-run-secret"
_verdict = msgspec.msgpack.Decoder(StoredVerdict)


@dataclass
class Ack:
    phase: str
    game_id: str
    version: int  # the version the move made
    move_id: str


@dataclass
class Journal:
    """What the players saw: acknowledged moves, interruptions (time, player), accepted moves' times, wins."""

    phase: str = "warm-up"
    acks: list[Ack] = field(default_factory=list)
    interruptions: list[tuple[float, str, str]] = field(default_factory=list)  # (time, player, kind)
    causes: list[tuple[float, str, str]] = field(default_factory=list)  # (time, player, what the client met)
    accepted: dict[str, list[float]] = field(default_factory=dict)  # player -> times of accepted moves
    wins: dict[str, str] = field(default_factory=dict)  # game id -> the phase its winning move was acknowledged in

    def ack(self, player: str, game_id: str, version: int, move_id: str) -> None:
        self.acks.append(Ack(self.phase, game_id, version, move_id))
        self.accepted.setdefault(player, []).append(time.monotonic())

    def interrupted(self, player: str, kind: str, why: str = "") -> None:
        """kind: "reconnect" (a socket or gateway failed) or "unavailable" (the server said so)."""
        self.interruptions.append((time.monotonic(), player, kind))
        self.causes.append((time.monotonic(), player, why or kind))

    def went_on(self, player: str) -> bool:
        """Whether the player has moved since its last interruption (or was never interrupted)."""
        last = max((at for at, who, _ in self.interruptions if who == player), default=None)
        return last is None or any(at > last for at in self.accepted.get(player, []))


class ValidateProcess:
    """`arena validate` as a child process (output to a log file), killed with SIGKILL by the fault."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.log_path = folder / "validate.log"
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "validate", "--claim-idle-ms", "2000"],
                env=env, stdout=log, stderr=subprocess.STDOUT,
            )

    def kill9(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait(20)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.kill9()


class System:
    """Everything started in `folder`; `stop()` ends every process it started, whatever state it is in."""

    def __init__(self, folder: Path, *, replica_acks: str = "1") -> None:
        self.folder = Path(folder)
        self.cluster = LocalRedisCluster(self.folder / "redis", masters=3, replicas=1)
        self.replica_acks = replica_acks
        self.gateways: list[ServeProcess] = []
        self.validators: list[ValidateProcess] = []
        self.admin: redis.cluster.RedisCluster | None = None

    def env(self) -> dict[str, str]:
        return {
            "REDIS_URL": self.cluster.url, "ARENA_SECRET": SECRET, "ARENA_VALIDATORS": "0",
            "ARENA_SCHEDULER": "1", "ARENA_DAILY_GAMES": "wish", "ARENA_REPLICA_ACKS": self.replica_acks,
            # A small pool with a short wait: a paused Redis is answered `unavailable`, not waited out.
            "ARENA_REDIS_POOL_SIZE": "8", "ARENA_REDIS_POOL_TIMEOUT": "0.5",
            "ARENA_RATE_PER_SECOND": "1000", "ARENA_RATE_BURST": "1000", "ARENA_LOG_LEVEL": "warning",
            **{f"ARENA_LIMIT_{name}": "off" for name in ("GUESTS", "SIGN_IN", "GAMES", "TICKETS")},
        }

    def start(self, gateways: int = 2, validators: int = 2) -> System:
        self.cluster.start()
        self.admin = redis.cluster.RedisCluster.from_url(parse_redis_url(self.cluster.url)[0])
        env = self.env()
        for n in range(gateways):
            self.gateways.append(ServeProcess(self.folder / f"gateway-{n}", **env).start())
        for n in range(validators):
            self.validators.append(ValidateProcess(self.folder / f"validator-{n}", {**os.environ, **env}))
        return self

    @property
    def urls(self) -> list[str]:
        return [gateway.url for gateway in self.gateways]

    # Faults -----------------------------------------------------------------------------------

    def master_of(self, game_id: str):
        """The cluster node (EmbeddedRedis) that is master of a game's slot now."""
        node = self.admin.get_node_from_key(log_key(game_id))
        return next(n for n in self.cluster.nodes if n.port == node.port)

    def kill_master(self, node) -> None:
        node.process.send_signal(signal.SIGKILL)  # as a crash: the folder stays ours, to start it again
        node.process.wait(20)

    def wait_for_failover(self, dead, timeout: float = 60.0) -> float:
        """Until another node serves the dead master's slots; the seconds it took."""
        started = time.monotonic()
        replica = next(n for n in self.cluster.replica_nodes + self.cluster.nodes[:3]
                       if n is not dead and n.running and _follows(n, dead))
        client = redis.Redis(host=replica.host, port=replica.port)
        try:
            while time.monotonic() - started < timeout:
                if client.info("replication").get("role") == "master":
                    return time.monotonic() - started
                time.sleep(0.1)
        finally:
            client.close()
        raise TimeoutError("no replica took over")

    def pause_redis(self, milliseconds: int) -> None:
        """CLIENT PAUSE on every master: every client's commands wait (writes and reads) that long."""
        for node in self.admin.get_primaries():
            self.admin.execute_command("CLIENT PAUSE", milliseconds, "ALL", target_nodes=node)

    # What the store kept -----------------------------------------------------------------------

    def lost(self, acks: list[Ack]) -> list[Ack]:
        """Acknowledged moves the store no longer has: the move id is not recorded (the append script writes
        it with the move's entries), or the log is shorter than the entry it was recorded at."""
        lost = []
        for ack in acks:
            stored = self.admin.hget(moves_key(ack.game_id), ack.move_id)
            if stored is None or self.admin.xlen(log_key(ack.game_id)) < int(stored):
                lost.append(ack)
        return lost

    def verdicts(self, game_ids) -> dict[str, str]:
        """Game id -> verdict outcome, for the games that have one."""
        out = {}
        for game_id in game_ids:
            raw = self.admin.hget(verdicts_key(), game_id)
            if raw is not None:
                out[game_id] = _verdict.decode(raw).verdict.outcome
        return out

    def verdict_lags_ms(self, game_ids) -> list[int]:
        """Per game with a verdict: from its submission to its verdict (the servers' clocks)."""
        raws = [self.admin.hget(verdicts_key(), game_id) for game_id in game_ids]
        stored = [_verdict.decode(raw) for raw in raws if raw is not None]
        return [verdict.decided_at_ms - verdict.submitted_at_ms for verdict in stored]

    def verdicts_counted(self) -> int:
        counts = self.admin.hgetall(validator_counts_key())
        return sum(int(counts.get(k, 0)) for k in (b"verified", b"rejected"))

    def stop(self) -> None:
        for validator in self.validators:
            validator.stop()
        for gateway in self.gateways:
            if gateway.process is not None and gateway.process.poll() is None:
                gateway.stop()
        if self.admin is not None:
            self.admin.close()
        self.cluster.kill()  # nothing to keep: the run's folder is thrown away


def _follows(node, master) -> bool:
    client = redis.Redis(host=node.host, port=node.port)
    try:
        info = client.info("replication")
        return info.get("role") == "slave" and int(info.get("master_port", 0)) == master.port
    finally:
        client.close()

