"""The embedded redis-server never outlives the process that started it and never shares its folder:
real processes killed with SIGKILL, real orphans, /proc read to see what is left running."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import redis

from services.redis.embedded import EmbeddedRedis, RedisServerError, find_redis_binary
from tests.support.processes import redis_servers_on, wait_until

pytestmark = pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="reads /proc (Linux)")

# A process that starts an EmbeddedRedis, prints its pid and waits to be killed. "watchdog" forces the
# fallback for systems without prctl(PR_SET_PDEATHSIG).
STARTER = """
import sys, time
from pathlib import Path
from services.redis.embedded import EmbeddedRedis
if sys.argv[2] == "watchdog":
    import services.redis.child_process as child_process
    child_process.PDEATHSIG_AVAILABLE = False
server = EmbeddedRedis(Path(sys.argv[1])).start()
print(server.process.pid, flush=True)
time.sleep(120)
"""


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


@pytest.mark.parametrize("guard", ["pdeathsig", "watchdog"])
def test_the_redis_server_dies_with_the_process_that_started_it(tmp_path: Path, guard: str) -> None:
    starter = subprocess.Popen(
        [sys.executable, "-c", STARTER, str(tmp_path), guard], stdout=subprocess.PIPE, text=True
    )
    try:
        redis_pid = int(starter.stdout.readline())
        assert redis_servers_on(tmp_path) == [redis_pid]
        starter.send_signal(signal.SIGKILL)  # no finally, no atexit: only the kernel knows
        starter.wait(10)
        wait_until(lambda: not redis_servers_on(tmp_path), what="the orphaned redis-server's death")
    finally:
        starter.kill()
        starter.wait()
        for pid in redis_servers_on(tmp_path):  # never leave one behind, even when the test fails
            os.kill(pid, signal.SIGKILL)


def test_a_server_started_from_a_thread_that_ended_keeps_running(tmp_path: Path) -> None:
    # PR_SET_PDEATHSIG fires when the *thread* that forked the child exits, not the process.
    started: list[EmbeddedRedis] = []
    thread = threading.Thread(target=lambda: started.append(EmbeddedRedis(tmp_path).start()))
    thread.start()
    thread.join()
    wait_until(lambda: not Path(f"/proc/self/task/{thread.native_id}").exists(), what="the thread's exit")
    server = started[0]
    try:
        client = redis.Redis.from_url(server.url)
        assert client.ping() and server.running
        client.close()
    finally:
        server.stop()


def test_a_second_launcher_on_the_same_folder_is_refused_while_the_first_runs(tmp_path: Path) -> None:
    second = EmbeddedRedis(tmp_path)
    try:
        with EmbeddedRedis(tmp_path) as first:
            with pytest.raises(RedisServerError, match=f"{re.escape(str(tmp_path))} is in use by .*pid {os.getpid()}"):
                second.start()
            assert not second.running
            assert redis_servers_on(tmp_path) == [first.process.pid]
            client = redis.Redis.from_url(first.url)
            assert client.ping()
            client.close()
        with second:  # the folder is free once the first stopped
            assert redis_servers_on(tmp_path) == [second.process.pid]
    finally:
        second.kill()


@pytest.mark.parametrize("pid_file", ["kept", "missing"])
def test_a_leftover_redis_server_is_stopped_and_its_data_kept(tmp_path: Path, pid_file: str) -> None:
    with EmbeddedRedis(tmp_path) as first:
        config, port = first.config_path, first.port
        client = redis.Redis.from_url(first.url)
        client.set("before", "1")
        client.close()
    # What a server killed before its Redis used to leave: a redis-server on our folder, its parent gone.
    binary = find_redis_binary()
    subprocess.run(["sh", "-c", '"$0" "$1" >/dev/null 2>&1 &', binary, str(config)], cwd=tmp_path, check=True)
    leftover = wait_until(lambda: redis_servers_on(tmp_path), what="the leftover's start")[0]
    assert parent_of(leftover) != os.getpid()
    client = redis.Redis(port=port)
    wait_until(lambda: _answers(client), what="the leftover's PING")
    client.set("by-the-leftover", "2")  # acknowledged (fsynced) by the leftover: must be kept
    client.close()
    if pid_file == "missing":  # as servers before pid files left them
        (tmp_path / "redis.pid").unlink(missing_ok=True)
    again = EmbeddedRedis(tmp_path)
    try:
        again.start()
        assert redis_servers_on(tmp_path) == [again.process.pid]
        client = redis.Redis.from_url(again.url)
        assert client.mget("before", "by-the-leftover") == [b"1", b"2"]
        client.close()
    finally:
        again.stop()
        for pid in redis_servers_on(tmp_path):
            os.kill(pid, signal.SIGKILL)
    assert not redis_servers_on(tmp_path)


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.ConnectionError:
        return False
