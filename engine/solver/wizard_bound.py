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

from ..cards import KING, WIZARD_SUITS
from ..games.wizard_moves import WizardBoard

PILES = 7
_SUIT = {suit: index for index, suit in enumerate(WIZARD_SUITS)}
_ALL = (1 << len(WIZARD_SUITS)) - 1


def matched(children: int, parents: int) -> int:
    """The largest matching of children to parents (suit bitmasks), no parent of a child's suit."""
    if children.bit_count() == 1 and children == parents:
        return 0  # its only parent is of its own suit
    return min(children.bit_count(), parents.bit_count())


def lost_on_last_pass(board: WizardBoard) -> bool:
    """True when the waste can never be cleared (see the module): only for the last pass.

    The moments are taken from the top of the waste down, the blocked cards kept by rank as suit
    bitmasks. Only a moment whose leaving card is itself blocked can need more bases than the one
    before: otherwise that card was the lowest of its suit below, and its leaving only unblocks
    cards and frees a parent."""
    waste = board.waste
    if len(waste) < 2:
        return False
    holders = sum(1 for pile in board.tableau if pile.down or (pile.cards and pile.cards[0].rank != KING))
    cards = [(card.rank, _SUIT[card.suit]) for card in waste]
    lows = []  # lows[i]: the lowest rank of W[i]'s suit in W[0..i-1] (99: none)
    low = [99] * len(WIZARD_SUITS)
    taken = [0] * 15  # suits of each rank under the card leaving (W[0..i-1] at moment i)
    for rank, suit in cards:
        lows.append(low[suit])
        low[suit] = min(low[suit], rank)
        taken[rank] |= 1 << suit
    children = [0] * 15  # blocked cards by rank (face up, and the waste above the card leaving)
    for pile in board.tableau:
        for card in pile.cards[pile.down :]:
            if card.rank > low[_SUIT[card.suit]]:
                children[card.rank] |= 1 << _SUIT[card.suit]
    for i in range(len(cards) - 1, 0, -1):
        rank, suit = cards[i]
        taken[rank] &= ~(1 << suit)
        if rank < lows[i]:  # the lowest of its suit so far: its suit's cards up to the next lowest unblock
            for r in range(rank + 1, min(lows[i], KING) + 1):
                children[r] &= ~(1 << suit)
            continue
        children[rank] |= 1 << suit
        if _too_many_bases(children, taken, holders):
            return True
    return False


def _too_many_bases(children: list[int], taken: list[int], holders: int) -> bool:
    bases = 0
    for rank in range(1, KING):
        if children[rank]:
            bases += children[rank].bit_count() - matched(children[rank], _ALL & ~taken[rank + 1])
    if bases > holders or bases + children[KING].bit_count() > PILES:
        return True
    through = PILES  # runs that can pass every rank above: one card of each rank, none under the card leaving
    for rank in range(KING - 1, 0, -1):
        through = min(through, PILES - taken[rank + 1].bit_count())
        if children[rank].bit_count() > holders + through:
            return True
    return False
