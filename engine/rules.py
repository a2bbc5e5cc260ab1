"""What each game module provides, and the registry of games by id.

A game's rules see only its own board and variant; the shared life cycle (resign, undo, status,
move counting) lives in engine.decider so every game gets it the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from .errors import BAD_VARIANT, UNKNOWN_GAME, RuleError, rule_error
from .events import AnyEvent
from .intents import AnyIntent
from .state import GameState, PileView


class GameRules:
    """Base class of a game module's rules. Subclasses fill in the class vars and methods."""

    game_id: ClassVar[str]
    title: ClassVar[str]
    variant_type: ClassVar[type[msgspec.Struct]]
    has_undo: ClassVar[bool] = False

    def deal(self, variant: Any, seed: int) -> Any:
        """The board at the start: a pure function of (variant, seed)."""
        raise NotImplementedError

    def decide(self, intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
        """Events for a legal intent on an unfinished game, or why it is illegal."""
        raise NotImplementedError

    def apply(self, board: Any, event: AnyEvent, variant: Any) -> Any:
        """The board after a move event that decide produced for this board."""
        raise NotImplementedError

    def legal_moves(self, state: GameState) -> list[AnyIntent]:
        raise NotImplementedError

    def outcome(self, board: Any, variant: Any) -> str:
        """in_progress, won or lost, as the game's text defines them."""
        raise NotImplementedError

    def piles(self, state: GameState) -> tuple[PileView, ...]:
        """The player's view of the board."""
        raise NotImplementedError

    def info(self, state: GameState) -> dict[str, Any]:
        """Extra facts the player may see (deals left, an open cast, ...)."""
        return {}

    def hidden_cards(self, board: Any) -> frozenset[int]:
        """Ids of the cards the player may not see now (face down, or in the undealt stock)."""
        raise NotImplementedError

    def revealed_piles(self, board: Any) -> tuple[PileView, ...]:
        """The board as `piles` lays it out, with every card face up (down is 0 everywhere). A stock
        lists its cards bottom to top like any pile: the next card to come off it is the last."""
        raise NotImplementedError

    # Variants -----------------------------------------------------------------------------

    def parse_variant(self, raw: dict[str, Any] | None) -> Any | RuleError:
        try:
            variant = msgspec.convert(raw or {}, self.variant_type, strict=True)
        except msgspec.ValidationError as exc:
            return rule_error(BAD_VARIANT, f"bad variant for {self.game_id}: {exc}")
        problem = self.check_variant(variant)
        return rule_error(BAD_VARIANT, f"bad variant for {self.game_id}: {problem}") if problem else variant

    def check_variant(self, variant: Any) -> str | None:
        """A reason the variant's values are out of range, or None."""
        return None

    def variant_text(self, variant: Any) -> str:
        """Canonical text for the deal key: sorted name=value pairs."""
        return variant_key(msgspec.structs.asdict(variant))


def variant_key(fields: dict[str, Any]) -> str:
    """Canonical variant text: name=value pairs sorted by name, e.g. "suits=2". Part of every deal
    key (a change here changes every deal) and the key of the statistics tables."""
    return ",".join(f"{name}={fields[name]}" for name in sorted(fields))


_REGISTRY: dict[str, GameRules] = {}


def register(rules: GameRules) -> GameRules:
    _REGISTRY[rules.game_id] = rules
    return rules


def game_ids() -> list[str]:
    _load_games()
    return list(_REGISTRY)


def rules_for(game_id: str) -> GameRules | RuleError:
    _load_games()
    rules = _REGISTRY.get(game_id) if isinstance(game_id, str) else None  # a list id is unhashable
    if rules is None:
        known = ", ".join(sorted(_REGISTRY))
        return rule_error(UNKNOWN_GAME, f"unknown game {game_id!r}; known games: {known}")
    return rules


_games_imported = False  # rules_for runs several times per move: skip the import statement after the first


def _load_games() -> None:
    global _games_imported
    if not _games_imported:
        from . import games  # noqa: F401  (importing the package registers every game)

        _games_imported = True
