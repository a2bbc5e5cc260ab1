"""The whole system on one machine, under faults: a local cluster of 3 masters with a replica each, two
gateways, two validators; players playing chosen Wish deals (every one a win) and today's daily on both
gateways. Then, one after the other, while they play:

1. kill -9 a gateway: its players take a ticket from the other one and go on with their game;
2. kill -9 a validator: the other takes over its submissions (every win still gets one verdict);
3. kill -9 the Redis master of a game being played: its replica takes over (appends wait for a replica, so no
   acknowledged move is lost), and the old master, started again, follows it;
4. CLIENT PAUSE every master for 2 s: clients are told `unavailable` (or wait) and go on afterwards.

The table: per fault, acknowledged moves the store lost, players interrupted and how many went on, wins
without a verdict or with two, and the time from the fault until the last interrupted player moved again
(for the validator: until the last win of the phase had its verdict). tests/gateway/test_faults.py runs a
short one and asserts the counts; nothing here asserts a time. FAULTS_DEBUG=1 also prints, per phase, what
each interrupted client met and when it moved again.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .fault_players import WORKLOADS, Session, Stuck, casual_player, winnable_lines
from .fault_system import Journal, System

PAUSE_MS = 2_000
DEBUG = bool(os.environ.get("FAULTS_DEBUG"))


@dataclass
class Phase:
    name: str
    started: float  # monotonic
    started_wall_ms: int
    ended: float = 0.0


@dataclass
class Row:
    fault: str
    acked: int
    lost: int
    interrupted: int
    resumed: int
    unavailable: int
    wins: int
    missing: int
    recover_s: float | None


@dataclass
class Result:
    rows: list[Row]
    doubled: int  # verdicts counted twice, over the whole run
    stuck: list[str]  # players that could not go on at all
    notes: list[str]
    moves_by_kind: dict[str, int]  # acknowledged moves per kind of player (casual, daily, race)


async def run(folder: Path, *, players: int, phase_s: float, dailies: bool = True) -> Result:
    """Everything, start to end."""
    system = await asyncio.to_thread(lambda: System(folder).start())
    journal, stop, phases, notes = Journal(), asyncio.Event(), [], []
    try:
        lines = await asyncio.to_thread(winnable_lines, 6)
        tasks = []
        kinds = {"casual"} | ({name for name, _ in WORKLOADS} if dailies else set())
        for gateway in range(len(system.urls)):
            for n in range(players):
                session = Session(f"casual-{gateway}-{n}", system.urls, gateway, journal)
                tasks.append(asyncio.create_task(casual_player(session, lines, stop)))
            for name, workload in WORKLOADS if dailies else []:
                tasks.append(asyncio.create_task(workload(Session(f"{name}-{gateway}", system.urls, gateway, journal), stop)))

        async def phase(name: str, inject=None, recover=None, *, until_moved: bool = False) -> None:
            journal.phase = name
            phases.append(Phase(name, time.monotonic(), int(time.time() * 1000)))
            if inject is not None:
                await asyncio.to_thread(inject)
            if recover is not None:
                await asyncio.to_thread(recover)
            await asyncio.sleep(phase_s)
            # The warm-up lasts until every kind of player has moved: on a loaded machine the first
            # connects and deals may take longer than a short phase, and a fault must meet players at play.
            # A fault's phase lasts until some move is acknowledged in it: a master's failover waits for the
            # restarted old master to sync as the new one's replica before appends are acknowledged again
            # (durability first), which on a loaded machine outlasted a short phase (12.5 s to recover).
            deadline = time.monotonic() + PHASE_LIMIT_S
            while until_moved and time.monotonic() < deadline and not _every_kind_moved(journal, kinds):
                await asyncio.sleep(0.1)
            while inject is not None and time.monotonic() < deadline and not _acked_in(journal, name):
                await asyncio.sleep(0.1)
            phases[-1].ended = time.monotonic()

        await phase("warm-up (no fault)", until_moved=True)
        await phase("kill -9 a gateway", system.gateways[0].kill9)
        await phase("kill -9 a validator", system.validators[0].kill9)
        victim = system.master_of(journal.acks[-1].game_id)  # a game being played now
        def failover() -> None:
            took = system.wait_for_failover(victim)
            victim.restart()  # as a supervisor would: it comes back as the new master's replica
            notes.append(f"the replica took over {took:.1f} s after the kill; the old master restarted then")

        await phase("kill -9 a Redis master", lambda: system.kill_master(victim), failover)
        await phase(f"pause Redis {PAUSE_MS / 1000:.0f} s", lambda: system.pause_redis(PAUSE_MS))
        stop.set()
        done = await asyncio.gather(*tasks, return_exceptions=True)
        stuck = [result for result in done if isinstance(result, Stuck)]
        failed = [result for result in done if isinstance(result, BaseException) and not isinstance(result, Stuck)]
        if failed:
            raise failed[0]
        await asyncio.to_thread(_verdicts_settle, system, journal)
        rows = [_row(system, journal, phases, index) for index in range(len(phases))]
        doubled = max(0, system.verdicts_counted() - len(system.verdicts(journal.wins)))
        kinds: dict[str, int] = {}
        for player, times in journal.accepted.items():
            kinds[player.split("-")[0]] = kinds.get(player.split("-")[0], 0) + len(times)
        return Result(rows, doubled, [str(problem) for problem in stuck], notes, kinds)
    finally:
        stop.set()
        await asyncio.to_thread(system.stop)


PHASE_LIMIT_S = 60.0  # the longest a phase waits for its players to move (past its own phase_s)


def _acked_in(journal: Journal, phase: str) -> bool:
    return any(ack.phase == phase for ack in reversed(journal.acks))


def _every_kind_moved(journal: Journal, kinds: set[str]) -> bool:
    return kinds <= {player.split("-")[0] for player, times in journal.accepted.items() if times}


def _verdicts_settle(system: System, journal: Journal, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and len(system.verdicts(journal.wins)) < len(journal.wins):
        time.sleep(0.25)


def _row(system: System, journal: Journal, phases: list[Phase], index: int) -> Row:
    phase = phases[index]
    acks = [ack for ack in journal.acks if ack.phase == phase.name]
    seen = [(at, player, kind) for at, player, kind in journal.interruptions if phase.started <= at <= phase.ended]
    last: dict[str, float] = {}
    for at, player, _ in seen:
        last[player] = max(last.get(player, 0.0), at)
    back = {player: next((t for t in journal.accepted.get(player, []) if t > at), None) for player, at in last.items()}
    resumed = [t for t in back.values() if t is not None]
    recover = max(resumed) - phase.started if resumed else None
    wins = [game for game, won_in in journal.wins.items() if won_in == phase.name]
    verdicts = system.verdicts(wins)
    if "validator" in phase.name and wins:  # for a validator: the longest a win of the phase waited for its verdict
        lags = system.verdict_lags_ms(wins)
        recover = max(lags) / 1000 if lags else None
    if back and DEBUG:
        print(phase.name, [(round(at - phase.started, 1), p, why) for at, p, why in journal.causes
                           if phase.started <= at <= phase.ended])
        print(phase.name, sorted((round(at - phase.started, 1), round((t or 0) - phase.started, 1), p)
                                 for p, at, t in ((p, last[p], back[p]) for p in back)))
    return Row(phase.name, len(acks), len(system.lost(acks)), len(last), len(resumed),
               sum(1 for *_, kind in seen if kind == "unavailable"), len(wins), len(wins) - len(verdicts), recover)


def report(result: Result) -> None:
    rows = result.rows
    header = ("fault", "acked moves", "acked lost", "clients resumed", "unavailable", "wins", "verdicts missing",
              "recovered in")
    table = [header] + [
        (r.fault, str(r.acked), str(r.lost), f"{r.resumed}/{r.interrupted}", str(r.unavailable), str(r.wins),
         str(r.missing), "-" if r.recover_s is None else f"{r.recover_s:.1f} s")
        for r in rows
    ]
    widths = [max(len(line[i]) for line in table) for i in range(len(header))]
    for line in table:
        print("   " + "  ".join(cell.ljust(width) for cell, width in zip(line, widths)))
    print(f"   verdicts doubled over the run: {result.doubled}; acknowledged moves by kind of player: "
          + ", ".join(f"{kind} {count}" for kind, count in sorted(result.moves_by_kind.items())))
    for line in result.notes + [f"stuck: {problem}" for problem in result.stuck]:
        print(f"   {line}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench faults")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--players", type=int, help="casual players on each gateway")
    parser.add_argument("--phase-seconds", type=float, help="how long each phase lasts")
    args = parser.parse_args(argv)
    players = args.players or (2 if args.quick else 6)
    phase_s = args.phase_seconds or (6.0 if args.quick else 20.0)
    with tempfile.TemporaryDirectory(prefix="arena-faults-") as folder:
        result = asyncio.run(run(Path(folder), players=players, phase_s=phase_s))
    print(f"   {players} casual players, a daily player and a race of two on each gateway; phases of {phase_s:.0f} s")
    report(result)
