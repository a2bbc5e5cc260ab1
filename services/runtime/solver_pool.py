"""The one worker process a server gives the solvers (daily seeds, race deals): CPU work off the server's
event loop and its GIL.

Spawned, not forked: a forked worker inherits the server's listening socket and outlives a server killed with
SIGKILL, so the dead server's port would accept connections nobody answers. It leaves when the server does,
however the server ended, and a clean stop does not wait for a solve in progress (it may take a minute).

A solve runs with Python's cyclic collector paused (`collector_paused`). A search keeps every position it
has generated in a few long lists and a table, and each full collection walks all of them, so the collector
took about a sixth of a four-suit Spider search's CPU at 500,000 nodes, more the longer the search. The
searches make no reference cycles (tests/engine/test_solver_collector.py), so pausing it loses nothing; it
runs again after each call. Only where a process does nothing but solve: this worker and `arena solve`, never
the server's own process, whose event loop keeps its collector (cli/serve.py tunes it).
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")

_POOL: ProcessPoolExecutor | None = None


def solver_pool() -> ProcessPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                    initializer=_exit_with_parent, initargs=(os.getpid(),))
    return _POOL


async def in_solver_worker(work: Callable[..., T], *args: object) -> T:
    """`work(*args)` in the worker process, with the collector paused there; `work` must be a module-level
    function (it is pickled to the worker)."""
    return await asyncio.get_running_loop().run_in_executor(solver_pool(), _without_collector, work, *args)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off for the block (as it was before, after it). For processes that only solve."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _without_collector(work: Callable[..., T], *args: object) -> T:
    with collector_paused():
        return work(*args)


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
