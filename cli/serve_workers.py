"""`arena serve --workers N`: N server processes on one port, for a machine with more than one core.

One Python process runs one event loop on one core. Here the parent keeps the embedded Redis (or names
REDIS_URL) and starts N ordinary `arena serve` processes, each binding the same port with SO_REUSEPORT:
the kernel spreads new connections over them. They share nothing in memory; what they share is what two
gateways on two machines share already: the game logs and move records in Redis (a move through either
is durable and deduplicated there), game updates over Redis pub/sub (services/gateway/links/fanout.py), the
secret in the data folder (made here once, before they start), and their metrics through
prometheus-client's multiprocess folder (made empty here unless PROMETHEUS_MULTIPROC_DIR is set).

The parent reserves the port first (bound with SO_REUSEPORT, never listening, so the kernel routes no
connection to it), which also makes `--port 0` one port for all. A worker that dies is started again;
SIGINT/SIGTERM stops the workers (each closes its sockets and drains its channels), then Redis.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from services.runtime.settings import Settings

STOP_TIMEOUT_S = 30.0
RESTART_PAUSE_S = 1.0  # a worker that dies at once is not restarted in a tight loop


def reserve_port(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port) with SO_REUSEPORT and never listened on: the port stays ours."""
    reserved = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    reserved.bind((host, port))
    return reserved


def worker_socket(host: str, port: int) -> socket.socket:
    """A worker's own listening socket on the shared port (uvicorn listens on it)."""
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.set_inheritable(False)
    return sock


def metrics_folder(data_dir: Path) -> str:
    """The multiprocess metrics folder the workers share: PROMETHEUS_MULTIPROC_DIR, else a fresh one."""
    named = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
    if named:
        return named
    folder = data_dir / "metrics-workers"
    shutil.rmtree(folder, ignore_errors=True)  # figures of processes that are gone would be summed in
    folder.mkdir(parents=True)
    return str(folder)


def serve_workers(settings: Settings) -> int:
    """Run `settings.workers` workers on settings.host/port with settings.redis_url until a signal."""
    from services.identity.tokens import load_or_create_secret

    load_or_create_secret(settings.secret, settings.data_dir)  # made once, here, not raced by the workers
    if settings.tournament_secret is None:
        load_or_create_secret(None, settings.data_dir, "tournament-secret")
    if settings.replay_signing_secret is None:
        load_or_create_secret(None, settings.data_dir, "replay-signing-secret")
    reserved = reserve_port(settings.host, settings.port)
    port = reserved.getsockname()[1]
    env = {**os.environ, "REDIS_URL": settings.redis_url or "", "ARENA_HOST": settings.host, "ARENA_PORT": str(port),
           "ARENA_DATA_DIR": str(settings.data_dir), "ARENA_WORKERS": "1", "ARENA_REUSE_PORT": "1",
           "PROMETHEUS_MULTIPROC_DIR": metrics_folder(settings.data_dir)}
    command = [sys.executable, "-m", "cli.main", "serve"]
    stopping = False

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    workers = [subprocess.Popen(command, env=env) for _ in range(settings.workers)]
    print(f"arena serve: {settings.workers} workers on port {port}", file=sys.stderr, flush=True)
    try:
        while not stopping:
            for index, worker in enumerate(workers):
                if worker.poll() is not None and not stopping:
                    print(f"arena serve: worker {worker.pid} exited ({worker.returncode}); starting another",
                          file=sys.stderr, flush=True)
                    time.sleep(RESTART_PAUSE_S)
                    workers[index] = subprocess.Popen(command, env=env)
            time.sleep(0.2)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT_S
        for worker in workers:
            try:
                worker.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        reserved.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0
