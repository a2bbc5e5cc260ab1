"""Rule errors are values: a code a program can branch on and a message a player can read."""

from __future__ import annotations

from msgspec import Struct


class RuleError(Struct, frozen=True):
    code: str
    message: str


def rule_error(code: str, message: str) -> RuleError:
    return RuleError(code=code, message=message)


# Codes used across games, so clients can react without parsing messages.
BAD_VARIANT = "bad_variant"
UNKNOWN_GAME = "unknown_game"
NO_SUCH_PILE = "no_such_pile"
ILLEGAL_MOVE = "illegal_move"
GAME_OVER = "game_over"
NOT_SUPPORTED = "not_supported"
NOTHING_TO_UNDO = "nothing_to_undo"
NOTHING_TO_FINISH = "nothing_to_finish"  # finish asked while the rest of the game still needs choices
