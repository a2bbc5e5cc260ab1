"""`arena review`: the operators' console for the human-speed review, on REDIS_URL.

    arena review list [DATE | CHALLENGE]             the wins under review, with their reasons
    arena review clear CHALLENGE PLAYER [--note T]   the win stands: the `review` mark comes off
    arena review reject CHALLENGE PLAYER [--note T]  the win comes off the board (before the reveal)

PLAYER is a player id (g_…) or an account name. `list` without an argument looks at today and the
7 days before (UTC, the server's clock). Each decision is an event in the player's attempt stream
(services/tournaments/review_decider.py); one made on an entry not under review is refused, exit 1.
Watchers of the board are told, as for any other change of it.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import re
from typing import Any

LOOK_BACK_DAYS = 7
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="the wins under review, with their reasons")
    listing.add_argument("where", nargs="?", metavar="DATE|CHALLENGE",
                         help=f"a day (YYYY-MM-DD) or a challenge key; default: today and the {LOOK_BACK_DAYS} days before")
    for name, what in (("clear", "let a win under review stand: its mark comes off"),
                       ("reject", "take a win under review off the board (before the reveal)")):
        decide = sub.add_parser(name, help=what)
        decide.add_argument("challenge", metavar="CHALLENGE", help="e.g. 2026-12-01/wish/mode=standard")
        decide.add_argument("player", metavar="PLAYER", help="a player id (g_...) or an account name")
        decide.add_argument("--note", default="", help="why (kept in the attempt's stream)")


def run(args: argparse.Namespace) -> int:
    from services.runtime.settings import settings_from_environment

    settings = settings_from_environment()
    if not settings.redis_url:
        print("arena review: set REDIS_URL to the Redis the servers use (e.g. redis://127.0.0.1:6379/0)")
        return 2
    return asyncio.run(_run(args, settings))


async def _run(args: argparse.Namespace, settings: Any) -> int:  # Any: Settings, imported late
    from services.runtime.clock import server_clock
    from services.games.service import GameService
    from services.gateway.sockets.board_socket import announcer
    from services.gateway.links.fanout import Fanout
    from services.gateway.links.pubsub_link import PubSubLink
    from services.redis.client import open_redis, parse_redis_url, server_client
    from services.store import EventStore
    from services.tournaments.review_desk import ReviewDesk
    from services.tournaments.service import TournamentService

    client = await open_redis(settings.redis_url)
    store = EventStore(client, clock=server_clock(settings.test_clock_file))
    tournaments = TournamentService(client, GameService(store, client), secret=b"")  # derives no seed
    fanout = Fanout(PubSubLink(server_client(parse_redis_url(settings.redis_url)[0])), confirm_timeout=5.0)
    tournaments.board_changed = announcer(fanout, tournaments)
    desk = ReviewDesk(tournaments)
    try:
        if args.action == "list":
            return await _list(desk, tournaments, args.where)
        return await _decide(desk, args.action, args.challenge, args.player, args.note)
    finally:
        await fanout.aclose()
        await client.aclose()


async def _list(desk: Any, tournaments: Any, where: str | None) -> int:  # Any: imported late: a fast --help
    from engine import RuleError
    from services.tournaments.catalogue import challenges_of, parse_challenge_key

    if where is None or DATE.fullmatch(where):
        try:
            last = dt.date.fromisoformat(where) if where else _today(tournaments.clock())
        except ValueError:
            print(f"arena review: {where!r} is not a date (YYYY-MM-DD)")
            return 2
        days = [last] if where else [last - dt.timedelta(days=n) for n in range(LOOK_BACK_DAYS, -1, -1)]
        keys = [ref.key for day in days for ref in challenges_of(day)]
    else:
        ref = parse_challenge_key(where)
        if isinstance(ref, RuleError):
            print(f"arena review: {ref.message}")
            return 2
        keys = [ref.key]
    found = [item for key in keys for item in await desk.under_review(key)]
    for item in found:
        entry = item.entry
        who = f"{entry.name} ({entry.player})" if entry.name else entry.player
        place = f"#{item.rank}" if item.rank is not None else "-"
        print(f"{item.challenge}  {place}  {who}  {entry.moves} moves  {entry.time_ms / 1000:.3f} s  "
              f"game {entry.game_id}  review: {', '.join(entry.review_reasons) or 'flagged'}")
    print(f"{len(found)} win(s) under review" + (f" in {keys[0]}" if len(keys) == 1 else ""))
    return 0


async def _decide(desk: Any, action: str, challenge: str, player: str, note: str) -> int:  # Any: imported late: a fast --help
    from engine import RuleError
    from services.tournaments.catalogue import parse_challenge_key

    ref = parse_challenge_key(challenge)
    if isinstance(ref, RuleError):
        print(f"arena review: {ref.message}")
        return 2
    decided = await (desk.clear if action == "clear" else desk.reject)(ref.key, player, note)
    if isinstance(decided, RuleError):
        print(f"arena review: {decided.code}: {decided.message}")
        return 1
    done = "cleared: the win stands" if action == "clear" else "rejected: the win is off the board"
    print(f"{ref.key}  {decided.name or decided.player} ({decided.player})  {done}")
    return 0


def _today(now_ms: int) -> dt.date:
    return dt.datetime.fromtimestamp(now_ms / 1000, tz=dt.UTC).date()
