"""The daily ranking key, written so that a Redis sorted set orders it. Pure.

Only won games rank. Among them: fewer moves first, then shorter server time, then earlier finish.
A composite float score cannot hold three 64-bit numbers exactly (a double has 53 bits), so the key
is a lexicographic member instead: every member has score 0 and Redis orders equal scores by their
bytes. A member is ``<moves><time_ms><finished_at_ms>:<player>``, each number as 16 lowercase hex
digits (fixed width, so byte order is numeric order), and the player id makes it unique. Two
entries with the same three numbers share a rank; the player id only fixes their order on a page.
"""

from __future__ import annotations

from msgspec import Struct

from engine import WON
from engine.errors import RuleError, rule_error

NOT_A_WIN = "not_a_win"
BAD_RANKING_VALUE = "bad_ranking_value"
FIELD_DIGITS = 16
KEY_LENGTH = 3 * FIELD_DIGITS  # the member's ranking prefix, before ":<player>"
MAX_VALUE = 2**64 - 1


class RankingKey(Struct, frozen=True, order=True):
    """Compares like the leaderboard orders: smaller is better."""

    moves: int
    time_ms: int
    finished_at_ms: int


def ranking_key(status: str, moves: int, time_ms: int, finished_at_ms: int) -> RankingKey | RuleError:
    """The key of a finished attempt, or not_a_win / bad_ranking_value."""
    if status != WON:
        return rule_error(NOT_A_WIN, f"only won games are ranked, not a {status!r} one")
    for name, value in (("moves", moves), ("time_ms", time_ms), ("finished_at_ms", finished_at_ms)):
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_VALUE:
            return rule_error(BAD_RANKING_VALUE, f"{name} must be a whole number from 0 to 2**64-1, not {value!r}")
    return RankingKey(moves, time_ms, finished_at_ms)


def key_prefix(key: RankingKey) -> str:
    return f"{key.moves:016x}{key.time_ms:016x}{key.finished_at_ms:016x}"


def ranking_member(key: RankingKey, player: str) -> str:
    if not isinstance(player, str) or not player:
        raise ValueError(f"a ranked entry needs a player id, not {player!r}")
    return f"{key_prefix(key)}:{player}"


def parse_member(member: str | bytes) -> tuple[RankingKey, str]:
    """(key, player) of a member that `ranking_member` wrote."""
    text = member.decode() if isinstance(member, bytes) else member
    if len(text) <= KEY_LENGTH + 1 or text[KEY_LENGTH] != ":":
        raise ValueError(f"not a ranking member: {text!r}")
    numbers = [int(text[i : i + FIELD_DIGITS], 16) for i in range(0, KEY_LENGTH, FIELD_DIGITS)]
    return RankingKey(*numbers), text[KEY_LENGTH + 1 :]


def player_of_member(member: str | bytes) -> str:
    text = member.decode() if isinstance(member, bytes) else member
    return text[KEY_LENGTH + 1 :]


def competition_ranks(offset: int, better_than_first: int, prefixes: list[str]) -> list[int]:
    """Ranks of the board members at positions offset, offset + 1, ... whose key prefixes are given;
    ties share a rank (1, 2, 2, 4). `better_than_first`: how many members have a key strictly
    better than the first one's (fewer than `offset` when it ties with members before the page)."""
    ranks: list[int] = []
    for index, prefix in enumerate(prefixes):
        if index == 0:
            ranks.append(better_than_first + 1)
        elif prefix == prefixes[index - 1]:
            ranks.append(ranks[-1])
        else:
            ranks.append(offset + index + 1)  # every member before this position is strictly better
    return ranks
