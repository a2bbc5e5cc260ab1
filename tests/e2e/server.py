"""A real `arena serve` subprocess on a free port with its own data folder, restartable in place."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ARENA = Path(sys.executable).with_name("arena")
START_TIMEOUT_S = 40
# Every browser context is a new guest from 127.0.0.1, and every socket takes a ticket: the limits stay
# on (the requests go through them) but sized for a test run, not for one person.
E2E_ENV = {**os.environ, **{f"ARENA_LIMIT_{name}": "1000/minute" for name in ("GUESTS", "SIGN_IN", "GAMES", "TICKETS")}}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class ArenaServer:
    def __init__(
        self, data_dir: Path | None, port: int | None = None, url: str | None = None, env: dict[str, str] | None = None
    ) -> None:
        self.data_dir = data_dir
        self.env = env or {}  # added to this process's environment, e.g. ARENA_GAME_MODULES
        self.port = port or free_port()
        self.url = url or f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.log_path = data_dir / "serve.log" if data_dir else None

    @classmethod
    def existing(cls, url: str) -> ArenaServer:
        return cls(None, url=url.rstrip("/"))

    @property
    def owned(self) -> bool:
        return self.data_dir is not None

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/health", timeout=2) as response:
                return response.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def start(self) -> None:
        assert self.owned, "an external server is not ours to start"
        log = open(self.log_path, "ab")
        command = [str(ARENA), "serve", "--port", str(self.port), "--data-dir", str(self.data_dir)]
        env = {**E2E_ENV, **(self.env or {})}
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"arena serve exited with {self.process.returncode}:\n{self.log_tail()}")
            if self.healthy():
                return
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"arena serve was not healthy within {START_TIMEOUT_S}s:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()  # SIGTERM: uvicorn closes the sockets, then the embedded Redis stops
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def embedded_redis_url(self) -> str:
        """The URL of the embedded Redis this server started (its first line says it), for tests that
        read what the server stored."""
        found = re.findall(r"redis: embedded (redis://\S+?)\)", self.log_path.read_text(errors="replace"))
        assert found, f"the server did not say where its Redis is:\n{self.log_tail()}"
        return found[-1]  # the latest start (the log is appended to on a restart)

    def log_tail(self, lines: int = 40) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
