"""The benchmark runner's arguments: --help says how, and an option it does not take is refused
before anything runs (a bench's own option given before `--` used to be dropped, and the whole
default benchmark ran instead)."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bench", *args], capture_output=True, text=True, timeout=60)


def test_help_lists_the_benchmarks_and_runs_none():
    done = run("--help")
    assert done.returncode == 0 and "benchmarks: " in done.stdout and "gateway" in done.stdout
    assert "==" not in done.stdout, "no benchmark ran"


def test_an_option_for_a_bench_before_the_separator_is_refused():
    done = run("gateway", "--against", "main")
    assert done.returncode == 2 and "unknown option(s): --against" in done.stdout and "==" not in done.stdout
    assert run("no-such-bench").returncode == 2


def test_a_setting_that_is_not_name_equals_value_is_refused_before_any_server_starts():
    done = run("gateway", "--", "--quick", "--setting", "append_in_flight")
    assert done.returncode != 0 and "--setting wants NAME=VALUE" in done.stdout + done.stderr
    assert "servers:" not in done.stdout


def test_the_hot_path_bench_sets_the_installed_engine_beside_its_source():
    """Its baseline is a copy of the engine's source loaded beside the installed one: it must load
    and play (no figure of time is checked)."""
    done = run("hot_path", "--", "--quick", "--game", "wish")
    assert done.returncode == 0, done.stderr
    line = next(row for row in done.stdout.splitlines() if row.startswith("wish "))
    assert line.rstrip().endswith("x") and "installed engine hot path:" in done.stdout
