"""Real processes for the crash tests: `arena serve` killed with SIGKILL, and a look into /proc for every
server (valkey-server or redis-server) left running on a folder (read straight from /proc, not through the
code under test)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

SERVE_START_TIMEOUT_S = 40.0
SERVER_NAMES = ("valkey-server", "redis-server")  # the embedded default, and any Redis named instead
SERVING = re.compile(r"serving at (http://[\d.]+:\d+)/ .*redis: (?:embedded )?(redis(?:\+cluster)?://[\d.]+:\d+/0)")


def redis_servers_on(folder: Path) -> list[int]:
    """Pids of the running server processes (valkey-server, redis-server) whose working folder or arguments name `folder`."""
    folder_text = str(Path(folder).resolve())
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
            args = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            names = (entry / "comm").read_text() + args
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue  # gone meanwhile, or a zombie (no cwd): not running
        if state == "Z" or not any(name in names for name in SERVER_NAMES):
            continue
        if cwd == folder_text or cwd.startswith(folder_text + "/") or folder_text in args:
            found.append(int(entry.name))
    return found


def wait_until(condition: Callable[[], object], timeout: float = 15.0, what: str = "the condition") -> object:
    """Poll `condition` until it is truthy (returns it) or `timeout` passes (AssertionError)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not happen within {timeout}s")
        time.sleep(0.05)


def serve_environment(data_dir: Path, **extra: str) -> dict[str, str]:
    """`arena serve` on the embedded Redis in `data_dir` (no REDIS_URL, the secret kept in the folder), unless
    `extra` names them."""
    env = {**os.environ, "ARENA_DATA_DIR": str(data_dir), "ARENA_RATE_PER_SECOND": "1000"}
    for name in ("REDIS_URL", "ARENA_SECRET"):
        env.pop(name, None)
    return {**env, **extra}


class ServeProcess:
    """`arena serve --port 0` on its own data folder; output goes to a log file (a pipe nobody reads
    would fill and block the server)."""

    def __init__(self, data_dir: Path, log_name: str = "serve.log", **env: str) -> None:
        """`env`: more variables (REDIS_URL=... for a shared Redis instead of the embedded one)."""
        self.env = env
        self.data_dir = Path(data_dir)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.data_dir.parent / f"{self.data_dir.name}-{log_name}"
        self.url = self.redis_url = ""
        self.process: subprocess.Popen | None = None

    def launch(self) -> subprocess.Popen:
        log = open(self.log_path, "ab")
        self._mark = self.log_path.stat().st_size
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "cli.main", "serve", "--port", "0"],
                env=serve_environment(self.data_dir, **self.env), stdout=log, stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        return self.process

    def start(self) -> ServeProcess:
        """Launch and wait for the "serving at" line; RuntimeError with the log if it never comes."""
        process = self.launch()
        deadline = time.monotonic() + SERVE_START_TIMEOUT_S
        while time.monotonic() < deadline:
            found = SERVING.search(self.output())
            if found:
                self.url, self.redis_url = found.groups()
                return self
            if process.poll() is not None:
                break
            time.sleep(0.05)
        self.kill9()
        raise RuntimeError(f"arena serve did not start:\n{self.output()}")

    def output(self) -> str:
        """What this launch printed so far."""
        with self.log_path.open("rb") as log:
            log.seek(self._mark)
            return log.read().decode(errors="replace")

    def kill9(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        if self.process is not None:
            self.process.wait(20)

    def stop(self) -> int:
        """SIGTERM (a clean stop) and the exit code. A server that has not stopped 40 s later (its own bounds
        are 10 s for sockets and 5 s for queued updates) is killed, and the failure shows what it printed."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(40)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"arena serve did not stop within 40 s of SIGTERM:\n{self.output()[-4000:]}") from None
