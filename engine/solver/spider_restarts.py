"""Spider's first pass past its first 200,000 nodes: short restarts beside the portfolio, and phase limits.

A best-first search that breaks near-ties by its key's CRC-32 (a `jitter` setting of spider_best)
wins a deal within a few thousand nodes or, most often, not at all: which salt wins is a lottery,
and a deal that no setting of the portfolio wins within 200,000 nodes is often won by some other
salt within 10,000. So once the portfolio has had its first FIRST_ROUND nodes, a few more searches
take their turns beside the others: series of restarts, one per setting of RESTARTED, RESTART_NODES
each, every restart with the next salt and a table of its own (the one before is dropped). Which
setting wins a stubborn deal varies as much as which salt does (on two suits 3627 and 3792, fresh
tuning deals, MACRO_COVER_JITTER won with none of 30 salts where MACRO_SHORT with jitter won 1 and
15 of 30), so each suit count restarts two settings of its portfolio, not one.

A budget up to FIRST_ROUND searches exactly as before (neither the restarts nor the phase limits
have begun), so hints, reviews and the deal pickers, which name smaller budgets, are unchanged, and
so is every deal the portfolio wins within FIRST_ROUND nodes. Four suits restart one setting,
MACRO_COVER_JITTER, for 20,000 nodes a restart (their default budget of 500,000 leaves the series
about 100,000 nodes: five restarts). Four-suit wins come later than one-suit ones (a salt that wins
a stubborn tuning deal does so within 4,000 to 25,000 nodes), so 10,000 a restart would miss most.

Every restart searches the same moves from the same root, only in another order, so without
phase limits they all reach the same positions when they run dry: the first that runs dry has
shown that no restart can win, and the series ends (the complete pass of spider.py may then still
answer). With phase limits (four suits, below) a restart that runs dry has only used up its
phases' shares, and the series still ends: the other searches take its turns.
"""

from __future__ import annotations

from typing import NamedTuple
from collections.abc import Callable

from .spider_board import Node
from .spider_best import (
    BASE, DOWN_HEAVY_JITTER, MACRO_COVER_JITTER, MACRO_SHORT, Deals, Expand, Search, Weights, best_first,
)

FIRST_ROUND = 200_000  # nodes of the portfolio alone (counted with the pass's first node)
RESTART_NODES = 10_000  # per restart (RESTART_NODES_BY_SUITS where a suit count has its own)
RESTART_NODES_BY_SUITS = {4: 20_000}
FIRST_SALT = 11  # the next salts in turn; 3 and 7 are the portfolio's own copies'

# The settings restarted, per suit count, one series each (salts FIRST_SALT, ... in each): first the
# jittered copy of the portfolio's best single setting, then a jittered copy of another of its
# settings (the restart replaces the salt). Chosen on fresh tuning deals, docs/solvers.md.
BASE_JITTER = BASE._replace(jitter=12)
MACRO_SHORT_JITTER = MACRO_SHORT._replace(jitter=12)
RESTARTED = {1: (DOWN_HEAVY_JITTER, BASE_JITTER), 2: (MACRO_COVER_JITTER, MACRO_SHORT_JITTER), 4: (MACRO_COVER_JITTER,)}
# Turns in a row per round of each series (the portfolio's searches have one each): on one suit two,
# so the two series search 4 of every 9 turns past FIRST_ROUND (one each: 2 of 7); on the one-suit
# tuning deals that won the slowest (2532) in 635,448 nodes where one turn each took 878,448. Two suits
# one each (2 of 6); four suits' one series one (1 of 3, beside the portfolio's two settings).
TURNS = {1: 2, 2: 1, 4: 1}


def restarted_for(suits: int) -> tuple[Weights, ...]:
    """The settings restarted for a deck of `suits` suits, one series each (none: no restarts)."""
    return RESTARTED.get(suits, ())


def turns_of(suits: int) -> int:
    return TURNS.get(suits, 1)


def restart_nodes_of(suits: int) -> int:
    return RESTART_NODES_BY_SUITS.get(suits, RESTART_NODES)


class PhaseLimits(NamedTuple):
    root: int  # the root's phase (while a deal is left after it)
    by_deals_left: tuple[int, ...]  # a phase a deal began, by the deals left after that deal


# Past FIRST_ROUND, four suits only: the expansions each search (the portfolio's and the restarts') may
# spend in one phase (the position a deal led to and what follows it without a deal), by the deals left
# after that deal: none 300, one 1,000, two to four 5,000; and in the root's phase 3,000. The searches of
# the four-suit deals they cannot win within FIRST_ROUND spend most of their nodes in one phase: after the
# last deal or the one before it (59% to 93% of the expansions of deals 127, 132 and 136 after the last
# deal, with no or one run cleared), or before the first (114, 161, 162, 224); a capped phase hands its
# turns to others. From the position the last deal led to, a winning line's end is found in a few hundred
# nodes on most deals. Chosen on seeds 101..300 and then on the deals left unknown over 101..1100
# (docs/solvers.md).
PHASE_LIMITS = {4: PhaseLimits(3_000, (300, 1_000, 5_000, 5_000, 5_000))}


def phase_limits_of(suits: int) -> list[int]:
    """The shares of expansions past FIRST_ROUND as spider_best's search reads them: the root's
    phase first, then by deals left (empty: no limits)."""
    limits = PHASE_LIMITS.get(suits)
    return [limits.root, *limits.by_deals_left] if limits else []


def restarts(root: Node, deals: Deals, runs_to_win: int, key: Callable[[Node], bytes], w: Weights,
             expand: Expand | None = None, length: int = RESTART_NODES, limits: list[int] | None = None) -> Search:
    """A spider_best.interleave search (a primed coroutine, the same protocol as best_first) that
    runs `w` with salts FIRST_SALT, FIRST_SALT + 1, ... for `length` nodes each (every restart with
    best_first's `limits`)."""
    search = _restarts(root, deals, runs_to_win, key, w, expand, length, [] if limits is None else limits)
    next(search)
    return search


def _restarts(root: Node, deals: Deals, runs_to_win: int, key: Callable[[Node], bytes], w: Weights,
              expand: Expand | None, length: int, limits: list[int]) -> Search:
    quota = yield 0, None
    salt = FIRST_SALT
    search: Search | None = None
    left = 0  # nodes left to the restart under way
    while True:
        done = 0  # nodes of this turn, over one restart or the end of one and the start of the next
        while done < quota:
            if search is None or not left:
                search = best_first(root, deals, runs_to_win, key, w._replace(salt=salt), expand, limits)
                salt += 1
                left = length
            try:
                fresh, line = search.send(min(quota - done, left))
            except StopIteration as stop:  # ran dry: so would every other salt
                return done + int(stop.value)  # the generator returns its nodes: an int
            done += fresh
            left -= fresh
            if line is not None:
                yield done, line
                return 0
        quota = yield done, None
