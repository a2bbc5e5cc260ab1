"""One owner per embedded Redis data folder, and the clean-up of what a killed owner left running.

Two redis-servers on one append-only file would each write their own history into it. So the launcher
holds an exclusive lock (flock) on `owner.lock` in the folder for as long as its Redis runs; the kernel
drops the lock when the holder dies, however it dies. The file also records who holds it (pid and
process start time), for the refusal message and to tell a dead owner from a live one.

Holding the lock, a new owner looks for a redis-server still running on the folder (by its pid file, and
by every process's working folder, which also finds servers from before pid files). The process that
started it is gone (we hold its lock), so it is stopped: SIGTERM (Redis flushes and fsyncs the AOF),
SIGKILL if it does not go. The one refused case is a server whose parent is the recorded owner and still
alive: the lock was bypassed (the file deleted under it), and that owner is using it.
"""

from __future__ import annotations

import fcntl
import logging
import os
from pathlib import Path
from typing import TextIO

import psutil

from .binary import SERVER_NAMES
from .errors import RedisFolderInUse

LOCK_NAME = "owner.lock"
PID_FILE_NAME = "redis.pid"
STOP_LEFTOVER_TIMEOUT_S = 15.0

log = logging.getLogger(__name__)

Owner = tuple[int, float]  # pid and start time: a pid alone may have been reused


class FolderLock:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / LOCK_NAME
        self._file: TextIO | None = None

    @property
    def held(self) -> bool:
        return self._file is not None

    def acquire(self) -> Owner | None:
        """Take the folder or raise RedisFolderInUse; returns the previous owner's record, if any."""
        self.folder.mkdir(parents=True, exist_ok=True)
        file = open(self.path, "a+", encoding="ascii")  # a+: the holder's record stays until we hold the lock
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_owner(file)
            file.close()
            raise RedisFolderInUse(_in_use_message(self.folder, holder)) from None
        previous = _read_owner(file)
        file.seek(0)
        file.truncate()
        file.write(f"{os.getpid()} {_started(os.getpid())}\n")
        file.flush()
        self._file = file
        return previous

    def release(self) -> None:
        if self._file is not None:
            fcntl.flock(self._file, fcntl.LOCK_UN)
            self._file.close()
            self._file = None


def stop_leftovers(
    folder: Path, previous_owner: Owner | None, names: tuple[str, ...] = SERVER_NAMES
) -> list[int]:
    """Stop every redis-server still running on `folder` (the caller holds its lock); their pids."""
    leftovers = [proc for proc in _candidates(folder, names) if _runs_on(proc, folder, names)]
    for proc in leftovers:
        if previous_owner is not None and _parent_is(proc, previous_owner):
            raise RedisFolderInUse(
                f"{folder}: its redis-server (pid {proc.pid}) is still run by pid {previous_owner[0]}, "
                f"though {LOCK_NAME} was free (was it deleted?): stop that server first"
            )
    for proc in leftovers:
        log.warning("stopping a redis-server (pid %d) left running on %s by a server that is gone", proc.pid, folder)
        _signal(proc, "terminate")  # SIGTERM: Redis flushes and fsyncs its AOF, then exits
    _, stubborn = psutil.wait_procs(leftovers, timeout=STOP_LEFTOVER_TIMEOUT_S)
    for proc in stubborn:
        log.warning("the leftover redis-server (pid %d) ignored SIGTERM: SIGKILL", proc.pid)
        _signal(proc, "kill")
    psutil.wait_procs(stubborn, timeout=STOP_LEFTOVER_TIMEOUT_S)
    # Stale: its server is gone (a clean exit removes it; SIGKILL does not). The new server writes its own.
    (folder / PID_FILE_NAME).unlink(missing_ok=True)
    return [proc.pid for proc in leftovers]


def _candidates(folder: Path, names: tuple[str, ...]) -> list[psutil.Process]:
    found: dict[int, psutil.Process] = {}
    try:
        pid = int((folder / PID_FILE_NAME).read_text().strip())
        found[pid] = psutil.Process(pid)
    except (OSError, ValueError, psutil.Error):
        pass  # no pid file, or its process is gone
    for proc in psutil.process_iter(["name"]):
        if proc.info["name"] in names:
            found.setdefault(proc.pid, proc)
    return list(found.values())


def _runs_on(proc: psutil.Process, folder: Path, names: tuple[str, ...]) -> bool:
    try:
        return proc.name() in names and proc.status() != psutil.STATUS_ZOMBIE and Path(proc.cwd()) == folder
    except psutil.Error:  # gone meanwhile, or not ours to look into
        return False


def _parent_is(proc: psutil.Process, owner: Owner | None) -> bool:
    if owner is None or owner[0] == os.getpid():
        return False  # no record, or a launcher of this very process that was dropped without stop()
    try:
        return proc.ppid() == owner[0] and abs(_started(owner[0]) - owner[1]) < 1.0
    except psutil.Error:
        return False


def _signal(proc: psutil.Process, how: str) -> None:
    try:
        getattr(proc, how)()
    except psutil.NoSuchProcess:
        pass


def _started(pid: int) -> float:
    return round(psutil.Process(pid).create_time(), 2)


def _read_owner(file) -> Owner | None:
    file.seek(0)
    try:
        pid, started = file.read().split()
        return int(pid), float(started)
    except ValueError:
        return None


def _in_use_message(folder: Path, holder: Owner | None) -> str:
    if holder is None:
        who = "another arena server"
    elif holder[0] == os.getpid():
        who = f"another launcher in this process (pid {holder[0]})"
    else:
        who = f"another arena server (pid {holder[0]})"
    return f"{folder} is in use by {who}: stop it first, or give this one another data folder"
