"""Keeps the embedded Redis running for as long as the server runs.

If the redis-server dies under a running server (killed, crashed, out of memory), a watcher thread starts
it again on the same folder and port: the AOF replays every acknowledged write, and the server's clients
(redis-py) reconnect to the same URL by themselves; the store loads its Lua script again on the first
NoScriptError. Meanwhile moves get `unavailable` and are sent again with the same move_id. A server that
dies again right after starting is restarted after a pause that doubles each time (up to
MAX_BACKOFF_S), so a Redis that cannot run does not spin; every death and restart is logged.
"""

from __future__ import annotations

import logging
import signal
import threading
import time

from .embedded import EmbeddedRedis

log = logging.getLogger(__name__)

FIRST_BACKOFF_S = 0.1
MAX_BACKOFF_S = 5.0
STABLE_AFTER_S = 10.0  # a server that ran this long before dying is restarted at once
STOP_JOIN_TIMEOUT_S = 20.0


class SupervisedRedis:
    """An EmbeddedRedis and the thread that restarts it; `restarts` counts the restarts so far."""

    def __init__(self, embedded: EmbeddedRedis) -> None:
        self.embedded = embedded
        self.restarts = 0
        self._stopping = threading.Event()
        self._lock = threading.Lock()  # a restart and stop() never interleave
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return self.embedded.url

    def start(self) -> SupervisedRedis:
        """Start the server (errors as EmbeddedRedis.start), then watch it."""
        self.embedded.start()
        self._stopping.clear()
        self._thread = threading.Thread(target=self._watch, name="redis-supervisor", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop watching and stop the server cleanly (AOF flushed). Safe to call twice."""
        self._stopping.set()
        with self._lock:
            self.embedded.stop()
        if self._thread is not None:
            self._thread.join(STOP_JOIN_TIMEOUT_S)
            self._thread = None

    def _watch(self) -> None:
        backoff = 0.0
        while not self._stopping.is_set():
            process = self.embedded.process
            if process is None:
                return  # stopped under us
            started = time.monotonic()
            code = process.wait()
            if self._stopping.is_set():
                return
            uptime = time.monotonic() - started
            backoff = 0.0 if uptime > STABLE_AFTER_S else min(max(backoff * 2, FIRST_BACKOFF_S), MAX_BACKOFF_S)
            log.warning(
                "the embedded Redis (pid %d, port %s, data in %s) %s after %.1fs; starting it again%s%s",
                process.pid, self.embedded.port, self.embedded.data_dir, _how_it_ended(code), uptime,
                f" in {backoff:.1f}s" if backoff else "",
                "" if code == -signal.SIGKILL else _log_lines(self.embedded.log_tail()),  # SIGKILL: it wrote nothing
            )
            if self._stopping.wait(backoff):
                return
            self._restart()

    def _restart(self) -> None:
        delay, attempt = FIRST_BACKOFF_S, 1
        while not self._stopping.is_set():
            with self._lock:
                if self._stopping.is_set():
                    return
                began = time.monotonic()
                try:
                    self.embedded.restart()
                except Exception as exc:  # noqa: BLE001  any failure: say it, wait, try again
                    log.error(
                        "the embedded Redis did not restart (attempt %d, next in %.1fs): %s", attempt, delay, exc
                    )
                else:
                    self.restarts += 1
                    log.warning(
                        "the embedded Redis restarted (pid %d, port %d) in %.2fs; restarts so far: %d",
                        self.embedded.process.pid if self.embedded.process else -1, self.embedded.port, time.monotonic() - began, self.restarts,
                    )
                    return
            self._stopping.wait(delay)
            delay, attempt = min(delay * 2, MAX_BACKOFF_S), attempt + 1


def _how_it_ended(code: int) -> str:
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


def _log_lines(tail: str, count: int = 5) -> str:
    lines = [line for line in tail.splitlines() if line.strip()][-count:]
    return "; its log ended with:\n  " + "\n  ".join(lines) if lines else ""
