"""The catalogue of daily challenges, their keys and their hours.

Every UTC day has one challenge per catalogue entry, the same deal for every player. A challenge is
named by its key text ``<date>/<game>/<variant>``, e.g. ``2026-12-01/spider/suits=2``, where
<variant> is the canonical variant text of the deal key (all fields, defaults included, sorted by
name). The key is stable forever: it names the challenge's Redis keys and its event streams, and a
published challenge must keep its name.

Hours: a challenge opens at 00:00 UTC of its date and closes 24 hours later; an attempt still
running an hour after the close (the grace) is ended as abandoned, and then the leaderboard is final.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import msgspec
from msgspec import Struct

from engine.errors import RuleError, rule_error
from engine import rules_for
from engine.rules import variant_key

DAY_MS = 24 * 3600 * 1000
GRACE_MS = 3600 * 1000
NOT_A_DAILY = "not_a_daily"
BAD_CHALLENGE_KEY = "bad_challenge_key"

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_EPOCH = dt.date(1970, 1, 1)


class DailyGame(Struct, frozen=True):
    """One catalogue entry: a game and its full variant (every field given, defaults included)."""

    game: str
    variant: dict[str, Any]  # Any: a variant's JSON values (the engine checks them)
    title: str

    @property
    def variant_text(self) -> str:
        return variant_key(self.variant)


CATALOGUE: tuple[DailyGame, ...] = (
    DailyGame("wish", {"mode": "standard"}, "The Wish"),
    DailyGame("spider", {"suits": 1}, "Spider, 1 suit"),
    DailyGame("spider", {"suits": 2}, "Spider, 2 suits"),
    DailyGame("spider", {"suits": 4}, "Spider, 4 suits"),
    DailyGame("patient-pairs", {"piles": 13}, "Patient Pairs"),
    DailyGame("wizard", {"redeals": None}, "Solitaire Wizard"),
)


class ChallengeRef(Struct, frozen=True):
    """One day's challenge of one catalogue entry, with its hours in Unix ms (UTC)."""

    date: str  # YYYY-MM-DD, a UTC day
    daily: DailyGame

    @property
    def key(self) -> str:
        return f"{self.date}/{self.daily.game}/{self.daily.variant_text}"

    @property
    def opens_at_ms(self) -> int:
        return day_start_ms(dt.date.fromisoformat(self.date))

    @property
    def closes_at_ms(self) -> int:
        return self.opens_at_ms + DAY_MS

    @property
    def final_at_ms(self) -> int:
        """The end of the grace: running attempts end abandoned, the leaderboard is final."""
        return self.closes_at_ms + GRACE_MS


def day_start_ms(day: dt.date) -> int:
    return (day - _EPOCH).days * DAY_MS


def utc_date_of(ms: int) -> str:
    """The UTC date (YYYY-MM-DD) of a Unix time in ms."""
    return (_EPOCH + dt.timedelta(days=ms // DAY_MS)).isoformat()


def canonical_variant(game: str, variant: dict[str, Any] | None) -> dict[str, Any] | RuleError:  # Any: a variant's JSON values
    """The variant with every field given (the game's defaults filled in), or why it is refused."""
    rules = rules_for(game)
    if isinstance(rules, RuleError):
        return rules
    parsed = rules.parse_variant(variant)
    if isinstance(parsed, RuleError):
        return parsed
    return msgspec.structs.asdict(parsed)


def daily_for(game: str, variant: dict[str, Any] | None) -> DailyGame | RuleError:  # Any: a variant's JSON values
    """The catalogue entry of a game and variant (defaults filled in), or not_a_daily."""
    full = canonical_variant(game, variant)
    if isinstance(full, RuleError):
        return full
    for daily in CATALOGUE:
        if daily.game == game and daily.variant == full:
            return daily
    offered = "; ".join(f"{d.game} {d.variant_text}" for d in CATALOGUE)
    return rule_error(NOT_A_DAILY, f"{game} {variant_key(full)} is not a daily challenge; dailies: {offered}")


def challenges_of(day: dt.date) -> list[ChallengeRef]:
    """The day's challenges, in catalogue order."""
    return [ChallengeRef(day.isoformat(), daily) for daily in CATALOGUE]


def parse_challenge_key(text: object) -> ChallengeRef | RuleError:
    """The challenge a key names, or bad_challenge_key. Only keys of catalogue entries are accepted,
    written exactly as `ChallengeRef.key` writes them."""
    if not isinstance(text, str) or text.count("/") != 2:
        return rule_error(BAD_CHALLENGE_KEY, f"a challenge key is <date>/<game>/<variant>, not {text!r}")
    date, game, variant_text = text.split("/")
    if not _DATE.fullmatch(date):
        return rule_error(BAD_CHALLENGE_KEY, f"{date!r} is not a date written YYYY-MM-DD")
    try:
        dt.date.fromisoformat(date)
    except ValueError:
        return rule_error(BAD_CHALLENGE_KEY, f"{date!r} is not a calendar date")
    for daily in CATALOGUE:
        if daily.game == game and daily.variant_text == variant_text:
            return ChallengeRef(date, daily)
    return rule_error(BAD_CHALLENGE_KEY, f"no daily challenge is {game} {variant_text!r}")
