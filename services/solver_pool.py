"""The one worker process a server gives the solvers (daily seeds, race deals): CPU work off the server's
event loop and its GIL.

Spawned, not forked: a forked worker inherits the server's listening socket and outlives a server killed with
SIGKILL, so the dead server's port would accept connections nobody answers. It leaves when the server does,
however the server ended, and a clean stop does not wait for a solve in progress (it may take a minute).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

_POOL: ProcessPoolExecutor | None = None


def solver_pool() -> ProcessPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_exit_with_parent, initargs=(os.getpid(),))
    return _POOL


def stop_solver_pool() -> None:
    """At the server's stop: drop queued solves and end the worker now, not after its current solve."""
    global _POOL
    if _POOL is None:
        return
    pool, _POOL = _POOL, None
    pool.shutdown(wait=False, cancel_futures=True)
    for child in multiprocessing.active_children():
        child.terminate()


def _exit_with_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()
