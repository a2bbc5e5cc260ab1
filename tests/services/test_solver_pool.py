"""The solver worker runs each call with the cyclic collector paused, and the collector is as it was after it."""

from __future__ import annotations

import asyncio
import gc

from services.runtime.solver_pool import collector_paused, in_solver_worker, solver_pool, stop_solver_pool


def collector_state() -> tuple[bool, int]:
    """In the worker: whether the collector is on, and the worker's process id."""
    import os

    return gc.isenabled(), os.getpid()


def test_a_call_in_the_worker_runs_with_the_collector_paused():
    async def calls():
        try:
            paused = [await in_solver_worker(collector_state) for _ in range(2)]
            between = await asyncio.get_running_loop().run_in_executor(solver_pool(), gc.isenabled)
            return paused, between
        finally:
            stop_solver_pool()

    import os

    ((on_first, pid_first), (on_second, pid_second)), between = asyncio.run(calls())
    assert (on_first, on_second) == (False, False)
    assert between  # on again in the worker after each call
    assert pid_first == pid_second != os.getpid()  # one worker process, not this one
    assert gc.isenabled()  # this process's collector was never touched


def test_collector_paused_restores_what_it_found():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block found it off and left it off
    assert gc.isenabled()
