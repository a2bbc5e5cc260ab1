"""The servers `bench gateway` measures: embedded Redis plus one `arena serve` subprocess each.

A server runs this tree's code, or a baseline commit's (`--against REF`: the commit is exported with
`git archive` into a temporary folder and the server started from there, so `-m cli.main` imports
that tree first). Several servers in one run see the same neighbours' load, phase by phase, which is
what makes their ratios comparable on a shared machine.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import httpx
import psutil

from services.redis.embedded import EmbeddedRedis, free_port

HERE = Path(__file__).resolve().parent.parent  # this tree: the code the bench itself runs


class Server:
    """One `arena serve` process (its CPU and memory measured apart from the bench's) and its Redis."""

    def __init__(self, folder: Path, label: str, *, root: Path = HERE, env: dict[str, str] | None = None,
                 profile: Path | None = None, granian: bool = False) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.label = label
        self.redis = EmbeddedRedis(folder / "redis").start()
        env = {**os.environ, "REDIS_URL": self.redis.url, "ARENA_DATA_DIR": str(folder), "ARENA_BENCH_ECHO": "1",
               "ARENA_RATE_PER_SECOND": "100000", "ARENA_RATE_BURST": "100000", "PYTHONPATH": str(root),
               # No daily challenges prepared: their solver process would compete with the phases for the cores.
               "ARENA_SCHEDULER": "0",
               # One address opens a thousand players: no HTTP limit (they are measured in the tests).
               **{f"ARENA_LIMIT_{name}": "off" for name in ("GUESTS", "SIGN_IN", "GAMES", "TICKETS")},
               **(env or {})}
        command = ["-m", "cli.main", "serve", "--port", "0"]
        if profile is not None:  # the profiler wraps the same command line
            command = ["-m", "bench.profiled_serve", str(profile), "--port", "0"]
            env["PYTHONPATH"] = f"{root}{os.pathsep}{HERE}"  # bench.profiled_serve lives in this tree
        if granian:  # the same app under granian's websocket stack (bench/granian_app.py); one worker
            port = free_port()
            command = ["-m", "granian", "--interface", "asgi", "--factory", "--ws", "--loop", "uvloop", "--workers",
                       "1", "--host", "127.0.0.1", "--port", str(port), "bench.granian_app:app"]
            env["PYTHONPATH"] = f"{root}{os.pathsep}{HERE}"
        self.granian = granian
        self.process = subprocess.Popen([sys.executable, *command], env=env, cwd=root, text=True,
                                        stdout=subprocess.DEVNULL if granian else subprocess.PIPE)
        if granian:
            self.url = f"http://127.0.0.1:{port}"
            _wait_until_serving(self.url, self.process, label)
        else:
            line = self.process.stdout.readline()
            found = re.search(r"http://[\d.]+:\d+", line)
            if found is None:
                raise RuntimeError(f"server {label} did not start: {line!r}")
            self.url = found.group(0)
        self.ws = self.url.replace("http://", "ws://")
        self.ps = psutil.Process(self.process.pid)
        self.redis_ps = psutil.Process(self.redis.process.pid)

    def processes(self) -> list[psutil.Process]:
        """The server and its workers (`--workers`), each an `arena serve` of its own."""
        workers = []
        for child in self.ps.children():
            try:
                if self.granian or "cli.main" in " ".join(child.cmdline()):  # (granian's only child: its worker)
                    workers.append(child)
            except psutil.NoSuchProcess:
                continue
        return [self.ps, *workers]

    def cpu_seconds(self) -> tuple[float, float]:
        server = 0.0
        for process in self.processes():
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            server += times.user + times.system
        b = self.redis_ps.cpu_times()
        return server, b.user + b.system

    def rss(self) -> int:
        return sum(process.memory_info().rss for process in self.processes())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(60)  # a profiled server writes its report first
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.redis.stop()


def _wait_until_serving(url: str, process: subprocess.Popen, label: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server {label} exited ({process.returncode}) before serving")
        try:
            httpx.get(f"{url}/api/catalog", timeout=2)
            return
        except httpx.TransportError:
            time.sleep(0.2)
    raise RuntimeError(f"server {label} did not serve within {timeout:.0f} s")


def export_commit(ref: str, folder: Path) -> Path:
    """The tree of commit `ref` of this repository, written under `folder` (for a baseline server)."""
    archive = subprocess.run(["git", "-C", str(HERE), "archive", "--format=tar", ref], check=True,
                             capture_output=True).stdout
    target = folder / f"tree-{re.sub(r'[^A-Za-z0-9]+', '-', ref)}"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(target, filter="data")
    return target


@contextlib.contextmanager
def servers(folder: Path, specs: list[tuple[str, Path, dict[str, str]]], profile: Path | None):
    """Start every (label, root, env) server (env GRANIAN=1: under granian); stop them all on the way out."""
    started: list[Server] = []
    try:
        for label, root, env in specs:
            report = None if profile is None else profile / f"{re.sub(r'[^A-Za-z0-9]+', '-', label)}.txt"
            granian = env.pop("GRANIAN", None) == "1"
            started.append(Server(folder / f"server-{len(started)}", label, root=root, env=env, profile=report,
                                  granian=granian))
        yield started
    finally:
        for server in started:
            server.stop()
