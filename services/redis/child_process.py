"""Child processes that never outlive this one, even when it is killed with SIGKILL.

An embedded redis-server left running after its server died keeps the port and the append-only file, and
a restarted server would start a second one on the same files. So the child is tied to us:

- Linux: between fork and exec the child asks the kernel for SIGKILL when its parent dies
  (prctl PR_SET_PDEATHSIG). The kernel sends it when the *thread* that forked the child exits, not the
  process; so every such child is forked by one launcher thread that lives as long as the process.
- Elsewhere (no prctl): a small watchdog process holds the read end of a pipe whose write end only we hold.
  When we die, however we die, the kernel closes it; the watchdog reads end-of-file and kills the child.
  A child we reaped ourselves retires its watchdog first, so a reused pid is never shot.

Either way the child gets its own session: Ctrl-C in a terminal reaches the server, which stops the child
itself, in order (sockets closed first, then Redis).
"""

from __future__ import annotations

import ctypes
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>
WATCHDOG_RETIRE = b"retire"
WATCHDOG = (
    "import os, signal, sys\n"
    f"if sys.stdin.buffer.read() != {WATCHDOG_RETIRE!r}:\n"  # end-of-file alone: our parent died
    "    try:\n"
    "        os.kill(int(sys.argv[1]), signal.SIGKILL)\n"
    "    except OSError:\n"
    "        pass\n"
)


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


_PRCTL = _load_prctl()
PDEATHSIG_AVAILABLE = _PRCTL is not None  # tests set it False to run the watchdog fallback on Linux


class _LauncherThread:
    """The one thread that forks every tethered child: it never exits while the process lives."""

    def __init__(self) -> None:
        self._requests: queue.SimpleQueue[tuple[Callable[[], Any], Future]] = queue.SimpleQueue()  # Any: any call and its result
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def call(self, function: Callable[[], T]) -> T:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():  # first use, or in a forked child
                self._thread = threading.Thread(target=self._serve, name="child-launcher", daemon=True)
                self._thread.start()
        done: Future = Future()
        self._requests.put((function, done))
        return done.result()

    def _serve(self) -> None:
        while True:
            function, done = self._requests.get()
            try:
                done.set_result(function())
            except BaseException as exc:  # handed back to the caller's thread
                done.set_exception(exc)


_LAUNCHER = _LauncherThread()


class TetheredChild:
    """A child process (`process`, a Popen) that dies with us; `release()` once it has been reaped."""

    def __init__(self, process: subprocess.Popen, watchdog: subprocess.Popen | None) -> None:
        self.process = process
        self.watchdog = watchdog

    def release(self) -> None:
        """Retire the watchdog (if any): call after the child was reaped, so it never kills a reused pid."""
        watchdog, self.watchdog = self.watchdog, None
        if watchdog is None:
            return
        assert watchdog.stdin is not None, "the watchdog is started with a pipe on its stdin"
        try:
            watchdog.stdin.write(WATCHDOG_RETIRE)
            watchdog.stdin.close()
        except OSError:
            pass  # it is gone already
        try:
            watchdog.wait(5)
        except subprocess.TimeoutExpired:
            watchdog.kill()
            watchdog.wait()


def spawn_tethered(args: list[str], **popen_kwargs: Any) -> TetheredChild:  # Any: Popen's own keyword arguments
    """subprocess.Popen(args, **popen_kwargs) in a new session, tied to this process's life."""
    if PDEATHSIG_AVAILABLE:
        preexec = _die_with_parent(os.getpid())
        process = _LAUNCHER.call(
            lambda: subprocess.Popen(args, preexec_fn=preexec, start_new_session=True, **popen_kwargs)
        )
        return TetheredChild(process, None)
    process = subprocess.Popen(args, start_new_session=True, **popen_kwargs)
    try:
        watchdog = subprocess.Popen(
            [sys.executable, "-c", WATCHDOG, str(process.pid)],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
    except BaseException:
        process.kill()
        process.wait()
        raise
    return TetheredChild(process, watchdog)


def _die_with_parent(parent_pid: int) -> Callable[[], None]:
    prctl, kill = _PRCTL, int(signal.SIGKILL)
    assert prctl is not None, "called only where PDEATHSIG_AVAILABLE"

    def in_the_child() -> None:  # runs between fork and exec: no locks, no imports
        prctl(PR_SET_PDEATHSIG, kill, 0, 0, 0)
        if os.getppid() != parent_pid:  # the parent died before prctl took effect: nobody else will kill us
            os._exit(1)

    return in_the_child
