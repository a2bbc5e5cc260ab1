"""What a typed line means in `arena play`: a legal move by number, a typed move, or a client command.

Typed moves are only checked for shape here; the server's engine decides whether they are legal and
its s2c.rejected reason is what the player sees. A line that is not even a move shape gets a local
error and nothing is sent.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct

HELP = """\
Commands:
  N                    play legal move number N from the list
  pair A B             remove the top cards of piles A and B (the pairing games)
  move SRC DST [N]     move the top N cards (default 1) from pile SRC to DST, e.g. move t3 t7 2
  deal | recycle | cast    deal from the stock, turn the waste over, cast a spell
  luck CARD DST        play card id CARD out of the stock onto DST (a luck pick)
  undo | resign        take back the last move (where the game has undo), give the game up
  finish               play the rest in one go, once it needs no choice (each move logged)
  hint                 the next move of a winning line (practice games only: the game is then assisted)
  new                  a new game of the same game and variant, on this connection (one in play is resigned)
  show                 draw the board again (an empty line does too)
  help                 this text
  quit                 leave; the game stays on the server (arena play --resume GAME_ID)"""

NO_FIELDS = ("deal", "recycle", "cast", "undo", "resign", "finish")
QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "h", "?")
SHOW_WORDS = ("show", "look", "")
HINT_WORDS = ("hint",)
NEW_WORDS = ("new",)
MAX_DIGITS = 9  # more than any pile, card id or list position; longer numbers are typing errors


class Command(Struct, frozen=True):
    """One parsed line: `move` to send, or an `action` (quit, help, show, hint, new), or an `error` to print."""

    move: dict[str, Any] | None = None  # Any: JSON
    action: str | None = None
    error: str | None = None


def _number(word: str) -> int | None:
    """A plain number typed in ASCII digits, or None. str.isdigit() alone also passes "²" and
    other Unicode digits that int() refuses, and int() refuses strings of thousands of digits."""
    if word.isascii() and word.isdigit() and len(word) <= MAX_DIGITS:
        return int(word)
    return None


def _pile_index(word: str) -> int:
    """Pairing piles are numbers; `t3` is accepted too, as the board labels them."""
    number = _number(word[1:] if word[:1] in ("t", "T") else word)
    if number is None:
        raise ValueError(f"{word!r} is not a pile number (0, 1, .. or t0, t1, ..)")
    return number


def _count(word: str) -> int:
    number = _number(word)
    if number is None or number < 1:
        raise ValueError(f"{word!r} is not a card count (1 or more)")
    return number


def parse_line(line: str, legal: list[dict[str, Any]] | tuple[dict[str, Any], ...]) -> Command:  # Any: JSON
    words = line.strip().split()
    head = words[0].lower() if words else ""
    args = words[1:]
    if head in QUIT_WORDS:
        return Command(action="quit")
    if head in HELP_WORDS:
        return Command(action="help")
    if head in SHOW_WORDS and not args:
        return Command(action="show")
    if head in HINT_WORDS and not args:
        return Command(action="hint")
    if head in NEW_WORDS and not args:
        return Command(action="new")
    number = _number(head)
    if number is not None and not args:
        if not 1 <= number <= len(legal):
            if not legal:
                return Command(error="there is no legal move to pick")
            return Command(error=f"no move {number}: pick 1 to {len(legal)}, or type a command (help)")
        return Command(move=dict(legal[number - 1]))
    try:
        return Command(move=_typed_move(head, args))
    except ValueError as exc:
        return Command(error=f"{exc} (type help for the commands)")


def _typed_move(head: str, args: list[str]) -> dict[str, Any]:  # Any: JSON
    if head in NO_FIELDS:
        if args:
            raise ValueError(f"{head} takes no arguments")
        return {"type": head}
    if head == "pair":
        if len(args) != 2:
            raise ValueError("pair needs two piles: pair A B")
        return {"type": "pair", "a": _pile_index(args[0]), "b": _pile_index(args[1])}
    if head == "move":
        if len(args) not in (2, 3):
            raise ValueError("move needs a source and a destination: move SRC DST [COUNT]")
        count = _count(args[2]) if len(args) == 3 else 1
        return {"type": "move", "src": args[0].lower(), "dst": args[1].lower(), "count": count}
    if head == "luck":
        card = _number(args[0]) if len(args) == 2 else None
        if card is None:
            raise ValueError("luck needs a card id and a destination: luck CARD DST")
        return {"type": "luck", "card": card, "dst": args[1].lower()}
    raise ValueError(f"unknown command {head!r}")
