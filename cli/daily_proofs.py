"""The checks `arena verify-daily` makes on one revealed challenge, pure (no network, no printing).

Three proofs, each a list of Findings (one printed line each, failed or not):
- the commitment is the one published before the day: compared with saved copies of the server's
  answers from then (`--published`), else only with the server's present answer and its record of
  when it was published;
- the reveal: the commitment binds (date, game, variant, seed, salt), and the seed is the counter's
  step of the day key, and it deals;
- the pick: every skipped counter (0 .. counter-1 of the day key) re-solved with the check the
  challenge names, each refused, and the chosen deal accepted: a skipped deal that passes means the
  server stepped over a deal it should have picked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from msgspec import Struct

from engine.rules import variant_key
from services.tournaments.challenge import PUBLISH_AHEAD_MS
from services.tournaments.derivation import seed_from_day_key, verify_commitment
from services.tournaments.winnable import WinnabilityCheck, check_for, check_named


class Challenge(Struct, frozen=True):
    """The part of the server's ChallengeInfo these checks read (GET /api/dailies, /api/dailies/DATE)."""

    challenge: str
    date: str
    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    status: str
    opens_at_ms: int
    commitment: str
    check: str = ""
    published_at_ms: int = 0  # absent from servers that do not say when the commitment was made
    seed: int | None = None
    salt: str | None = None
    counter: int | None = None
    day_key: str | None = None


class Card(Struct, frozen=True):
    challenge: Challenge


class DayAnswer(Struct, frozen=True):
    """GET /api/dailies/DATE."""

    date: str
    challenges: list[Card]
    now_ms: int = 0


class HubAnswer(Struct, frozen=True):
    """GET /api/dailies: today's and yesterday's days, and the commitments of the days ahead."""

    today: DayAnswer
    yesterday: DayAnswer
    upcoming: list[Challenge] = []


@dataclass(frozen=True)
class Published:
    """A commitment as a saved copy showed it, and when the server said the copy was made."""

    commitment: str
    saved_at_ms: int
    source: str  # the file it came from


@dataclass(frozen=True)
class Finding:
    ok: bool
    text: str


def published_in(answer: HubAnswer | DayAnswer, source: str) -> dict[str, Published]:
    """Every commitment a saved answer lists, by challenge key."""
    if isinstance(answer, DayAnswer):
        return {c.challenge.challenge: Published(c.challenge.commitment, answer.now_ms, source) for c in answer.challenges}
    saved_at = answer.today.now_ms
    found = {c.challenge.challenge: Published(c.challenge.commitment, saved_at, source)
             for day in (answer.yesterday, answer.today) for c in day.challenges}
    found.update({c.challenge: Published(c.commitment, saved_at, source) for c in answer.upcoming})
    return found


def when(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M UTC")


def ahead(ms: int) -> str:
    """A span before the day opened, in days or hours."""
    return f"{ms / 86_400_000:.1f} days" if ms >= 86_400_000 else f"{ms / 3_600_000:.1f} h"


def commitment_findings(info: Challenge, saved: Published | None, have_copies: bool) -> list[Finding]:
    """The commitment against the value published before the day."""
    out = []
    if saved is not None:
        if saved.commitment.lower() != info.commitment.lower():
            out.append(Finding(False, f"mismatch: the commitment published before the day was {saved.commitment} "
                                      f"({saved.source}), the day's answer says {info.commitment}"))
        elif saved.saved_at_ms and saved.saved_at_ms >= info.opens_at_ms:
            out.append(Finding(True, f"commitment: matches {saved.source}, saved {when(saved.saved_at_ms)}, after "
                                     "the day opened: it shows the commitment did not change since, not that it "
                                     "was fixed before the day"))
        else:
            out.append(Finding(True, f"commitment: matches the one published before the day ({saved.source}, "
                                     f"saved {when(saved.saved_at_ms) if saved.saved_at_ms else 'at a time it does not say'})"))
    elif have_copies:
        out.append(Finding(True, "commitment: not in the saved copies: compared only with the server's present answer"))
    else:
        out.append(Finding(True, "commitment: compared only with the server's present answer (give --published "
                                 "FILE, a copy saved before the day, to check it was not changed since)"))
    out.append(_publication_time(info))
    return out


def _publication_time(info: Challenge) -> Finding:
    """When the server says the commitment was made: never after the day opened."""
    if not info.published_at_ms:
        return Finding(True, "published: the server's answer does not say when")
    lead = info.opens_at_ms - info.published_at_ms
    if lead <= 0:
        return Finding(False, f"mismatch: the commitment was published {when(info.published_at_ms)}, after the "
                              f"day opened ({when(info.opens_at_ms)})")
    if lead < PUBLISH_AHEAD_MS:
        return Finding(True, f"published: {when(info.published_at_ms)}, only {ahead(lead)} before the day opened "
                             f"(the schedule is {ahead(PUBLISH_AHEAD_MS)}; a server started late publishes late)")
    return Finding(True, f"published: {when(info.published_at_ms)}, {ahead(lead)} before the day opened "
                         "(the server's own record)")


def reveal_findings(info: Challenge) -> list[Finding]:
    """The revealed seed and salt against the commitment, and the seed against the day key."""
    assert info.seed is not None and info.salt and info.day_key and info.counter is not None
    text = variant_key(info.variant)
    if not verify_commitment(info.commitment, info.date, info.game, text, info.seed, bytes.fromhex(info.salt)):
        return [Finding(False, "mismatch: the commitment does not bind this seed and salt")]
    if seed_from_day_key(bytes.fromhex(info.day_key), info.counter) != info.seed:
        return [Finding(False, f"mismatch: the seed is not counter {info.counter}'s step of the day key")]
    return [Finding(True, f"reveal: the commitment binds seed {info.seed} and the salt; the seed is counter "
                          f"{info.counter}'s step of the day key")]


def server_check(game: str, name: str) -> WinnabilityCheck | None:
    """The check a challenge names, as the server ran it; None for a name this version does not know."""
    best = check_for(game)  # the game's own (a registered solver), when the challenge names it
    return best if name == best.name else check_named(name)


def pick_findings(info: Challenge, on_counter: Callable[[int], None] = lambda c: None) -> Iterator[Finding]:
    """Every skipped counter re-solved (a Finding each, as it is done), then the chosen deal."""
    assert info.seed is not None and info.day_key and info.counter is not None
    check = server_check(info.game, info.check)
    if check is None:
        yield Finding(False, f"mismatch: the check {info.check!r} is unknown to this arena: the skipped "
                             "counters cannot be re-solved")
        return
    key, name = bytes.fromhex(info.day_key), check.name
    if info.counter == 0:
        yield Finding(True, "skipped counters: none (counter 0 was the first deal tried)")
    for counter in range(info.counter):
        on_counter(counter)
        seed = seed_from_day_key(key, counter)
        passed = _passes(check, info, seed)
        if passed is None:
            yield Finding(False, f"mismatch: skipped counter {counter} (seed {seed}) does not deal")
        elif passed:
            yield Finding(False, f"mismatch: skipped counter {counter} (seed {seed}) passes {name}: the server "
                                 "skipped a deal it should have picked")
        else:
            yield Finding(True, f"skipped counter {counter} (seed {seed}): re-solved, refused by {name}")
    on_counter(info.counter)
    if _passes(check, info, info.seed):
        yield Finding(True, f"chosen counter {info.counter}: re-solved, accepted by {name}")
    else:
        yield Finding(False, f"mismatch: the chosen deal (counter {info.counter}) does not pass {name}")


def _passes(check: WinnabilityCheck, info: Challenge, seed: int) -> bool | None:
    """The check's answer on a deal; None when the seed does not deal at all."""
    try:
        return check(info.game, info.variant, seed)
    except ValueError:
        return None
