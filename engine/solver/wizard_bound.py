"""A Solitaire Wizard position on its last pass (no recycle left) that can never be won, found
without searching it: the waste below a card is a wall that the cards parked above it must outlast.

On the last pass the waste never goes back to the stock: a card leaves it only from the top, and
every card now in it must leave it for the game to be won. Take the moment a waste card W[i] leaves.
The cards under it, W[0..i-1], are still there; so a card of a suit with a lower card among them
(*blocked*) cannot be home then. Every blocked card that was above W[i] (W[i] itself included) has
left the waste for the tableau, and every blocked card face up on the tableau now is still there
(face-up cards stay face up); so all of them lie face up on the tableau at once. A face-up card lies
either on a card one rank higher of another suit (its *parent*: face up, not in W[0..i-1], and
holding no other card) or at the bottom of its pile's face-up cards (a *base*): on a face-down
card, on the floor of a pile whose bottom card it is, or a King on an empty pile. A pile that now
has no face-down card and a King (or nothing) at its bottom can never again hold a base other than
a King (its bottom card only changes when it empties, and then only a King comes), so at most
`holders` non-King bases are possible: the piles with a face-down card or a non-King bottom card
now. So the blocked cards of each rank r (their suits SC) take at most `matched(SC, SP)` parents of
rank r+1 (the suits SP of those not in W[0..i-1], a parent of each suit per card), and the rest
must be bases: if for some i the non-King bases needed exceed `holders`, or all bases needed
exceed the 7 piles, the position is lost. Likewise by runs: the blocked cards of rank r lie in
distinct runs (a run holds one card per rank); a run on a non-King base needs a holder, and a run
on a King holds a card of every rank above r, none of them in W[0..i-1]; so if more cards of rank r
are blocked than `holders` plus the fewest cards of a rank above r outside W[0..i-1], it is lost.
Nothing here asks where the parents are or whether they can get there (a relaxation: the real game
needs more), so it never calls a winnable position lost; the tests check that on every last-pass
position of winning lines, and compare answers with and without it where the search finishes.

Per rank the parent graph is complete but for one suit per card, so its largest matching has a
closed form: all of the smaller side, except one card whose only parent candidate is of its own suit.
"""

from __future__ import annotations

from ..cards import KING, WIZARD_SUITS, wizard_deck
from ..games.wizard_moves import WizardBoard

PILES = 7
_SUIT = {suit: index for index, suit in enumerate(WIZARD_SUITS)}
_ALL = (1 << len(WIZARD_SUITS)) - 1


def matched(children: int, parents: int) -> int:
    """The largest matching of children to parents (suit bitmasks), no parent of a child's suit."""
    if children.bit_count() == 1 and children == parents:
        return 0  # its only parent is of its own suit
    return min(children.bit_count(), parents.bit_count())


def _deficits() -> list[list[int]]:
    """DEFICIT[children][taken]: how many of the children (a suit bitmask of one rank) must be bases
    when the parents of the suits in `taken` (the rank above) are under the card leaving."""
    return [[children.bit_count() - matched(children, _ALL & ~taken) for taken in range(_ALL + 1)]
            for children in range(_ALL + 1)]


DEFICIT = _deficits()
POP = [suits.bit_count() for suits in range(_ALL + 1)]
_RANK_SUIT = {card.id: (card.rank, _SUIT[card.suit]) for card in wizard_deck()}  # read once per card, not per call


def lost_on_last_pass(board: WizardBoard) -> bool:
    """True when the waste can never be cleared (see the module): only for the last pass.

    The moments are taken from the top of the waste down, the blocked cards kept by rank as suit
    bitmasks. Only a moment whose leaving card is itself blocked can need more bases than the one
    before: otherwise that card was the lowest of its suit below, and its leaving only unblocks
    cards and frees a parent. The bases a moment needs are a sum over ranks (`need[r]`, read off
    DEFICIT); a moment changes the children of one rank (or unblocks some of one suit) and the
    parents taken of one rank, so only those terms are read again (this runs at every last-pass
    node: a full sum per moment cost half the search's time)."""
    waste = board.waste
    if len(waste) < 2:
        return False
    holders = sum(1 for pile in board.tableau if pile.down or (pile.cards and pile.cards[0].rank != KING))
    cards = [_RANK_SUIT[card.id] for card in waste]
    lows = []  # lows[i]: the lowest rank of W[i]'s suit in W[0..i-1] (99: none)
    low = [99] * len(WIZARD_SUITS)
    taken = [0] * 15  # suits of each rank under the card leaving (W[0..i-1] at moment i)
    for rank, suit in cards:
        lows.append(low[suit])
        if rank < low[suit]:
            low[suit] = rank
        taken[rank] |= 1 << suit
    children = [0] * 15  # blocked cards by rank (face up, and the waste above the card leaving)
    for pile in board.tableau:
        for card in pile.cards[pile.down :]:
            rank, suit = _RANK_SUIT[card.id]
            if rank > low[suit]:
                children[rank] |= 1 << suit
    need = [0] * 15  # need[r]: bases the blocked cards of rank r (1..Queen) need
    for r in range(1, KING):
        need[r] = DEFICIT[children[r]][taken[r + 1]]
    bases = sum(need)
    first = True  # no blocked moment checked yet
    for i in range(len(cards) - 1, 0, -1):
        rank, suit = cards[i]
        bit = 1 << suit
        taken[rank] &= ~bit
        if 2 <= rank:  # the parents of rank - 1 gained one suit
            term = DEFICIT[children[rank - 1]][taken[rank]]
            bases += term - need[rank - 1]
            need[rank - 1] = term
        if rank < lows[i]:  # the lowest of its suit so far: its suit's cards up to the next lowest unblock
            for r in range(rank + 1, min(lows[i], KING) + 1):
                if children[r] & bit:
                    children[r] &= ~bit
                    if r < KING:
                        term = DEFICIT[children[r]][taken[r + 1]]
                        bases += term - need[r]
                        need[r] = term
            continue
        children[rank] |= bit
        if 1 <= rank < KING:
            term = DEFICIT[children[rank]][taken[rank + 1]]
            bases += term - need[rank]
            need[rank] = term
        if bases > holders or bases + POP[children[KING]] > PILES:
            return True
        if first or POP[children[rank]] > holders:  # else its rank cannot fail the runs condition
            if _too_many_runs(children, taken, holders, None if first else rank):
                return True
        first = False
    return False


def _too_many_runs(children: list[int], taken: list[int], holders: int, only: int | None) -> bool:
    """The runs condition for every rank from Queen down to Ace, or for rank `only`. Only the first
    blocked moment needs every rank: from one moment to the next (down the waste) the parents taken
    only go, so the runs that can pass a rank only grow, and only the leaving card's rank gains a
    blocked card; a rank that did not fail at the moment before cannot fail now unless it is that
    one (and a King is in no run above it)."""
    if only is not None and only >= KING:
        return False
    through = PILES  # runs that can pass every rank above: one card of each rank, none under the card leaving
    for rank in range(KING - 1, 0, -1):
        free = PILES - POP[taken[rank + 1]]
        if free < through:
            through = free
        if only is None or rank == only:
            if POP[children[rank]] > holders + through:
                return True
            if rank == only:
                return False
    return False
