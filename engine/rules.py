"""What each game module provides: the base class of a game's rules and what a menu shows of it.

A game's rules see only its own board and variant; the shared life cycle (resign, undo, status,
move counting) lives in engine.decider so every game gets it the same way. Which games exist is
engine.registry's business: this module imports no game, so a game module can import it freely.
"""

from __future__ import annotations

from typing import Any, ClassVar, Generic, TypeVar, cast

import msgspec

from .errors import BAD_VARIANT, RuleError, rule_error
from .events import AnyEvent
from .intents import AnyIntent
from .state import GameState, PileView
from .variants import Preset, variant_fields, variant_problem


BoardT = TypeVar("BoardT")  # a game's own board Struct
VariantT = TypeVar("VariantT", bound=msgspec.Struct)  # a game's own variant Struct


class GameRules(Generic[BoardT, VariantT]):
    """Base class of a game module's rules, typed by the game's board and variant. Subclasses fill
    in the class vars and methods.

    The class vars are also the game's entry in the catalogue (engine.catalog): menus, titles and
    capability checks everywhere read them, so adding a game needs no list edited anywhere else.
    """

    game_id: ClassVar[str]
    title: ClassVar[str]
    blurb: ClassVar[str]  # one line for a menu
    variant_type: ClassVar[type[msgspec.Struct]]  # its fields, types and Meta constraints are the schema
    # Named variants a menu offers; the default variant must be one of them.
    presets: ClassVar[tuple[Preset, ...]] = (Preset("standard", "Standard", {}),)
    # Argument-free intents a player triggers outside the cards (buttons): "deal", "recycle", "cast".
    actions: ClassVar[tuple[str, ...]] = ()
    has_undo: ClassVar[bool] = False
    has_solver: ClassVar[bool] = False  # engine.solver solves its positions
    solver: ClassVar[str] = "pairs"  # which of engine.solver's searches: pairs, spider, wading-pool, wizard
    # Ranked play wants deals a player can win: a game without known winnable deals is neither.
    daily_eligible: ClassVar[bool] = False
    race_eligible: ClassVar[bool] = False

    def deal(self, variant: VariantT, seed: int) -> BoardT:
        """The board at the start: a pure function of (variant, seed)."""
        raise NotImplementedError

    def decide(self, intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
        """Events for a legal intent on an unfinished game, or why it is illegal."""
        raise NotImplementedError

    def apply(self, board: BoardT, event: AnyEvent, variant: VariantT) -> BoardT:
        """The board after a move event that decide produced for this board."""
        raise NotImplementedError

    def legal_moves(self, state: GameState) -> list[AnyIntent]:
        raise NotImplementedError

    def outcome(self, board: BoardT, variant: VariantT) -> str:
        """in_progress, won or lost, as the game's text defines them."""
        raise NotImplementedError

    def piles(self, state: GameState) -> tuple[PileView, ...]:
        """The player's view of the board."""
        raise NotImplementedError

    def info(self, state: GameState) -> dict[str, Any]:  # Any: the game's own JSON counters
        """Extra facts the player may see (deals left, an open cast, ...)."""
        return {}

    def notes(self, state: GameState) -> tuple[str, ...]:
        """The status in players' words, one short phrase each ("2 deals left"): what a status line
        shows instead of the raw `info` keys."""
        return ()

    # Finishing: the rest of the game played in one go, once it needs no choice -------------

    # When the rest needs no choice, in players' words (the reason a Finish button is greyed out).
    finish_rule: ClassVar[str] = "this game never finishes by itself"

    def finish_line(self, board: BoardT, variant: VariantT) -> list[AnyIntent] | None:
        """The moves that win from here when the rest needs no choice (any order would win), else
        None. Called on an unfinished game; it must be cheap to refuse, as every view asks."""
        return None

    def hidden_cards(self, board: BoardT) -> frozenset[int]:
        """Ids of the cards the player may not see now (face down, or in the undealt stock)."""
        raise NotImplementedError

    def revealed_piles(self, board: BoardT) -> tuple[PileView, ...]:
        """The board as `piles` lays it out, with every card face up (down is 0 everywhere). A stock
        lists its cards bottom to top like any pile: the next card to come off it is the last."""
        raise NotImplementedError

    # Variants -----------------------------------------------------------------------------

    def parse_variant(self, raw: dict[str, Any] | None) -> VariantT | RuleError:  # Any: the client's JSON, checked here
        try:
            # variant_type is the game's VariantT (a ClassVar cannot name a type variable)
            variant = cast(VariantT, msgspec.convert(raw or {}, self.variant_type, strict=True))
        except msgspec.ValidationError as exc:
            problem = variant_problem(exc, raw, variant_fields(self.variant_type))
            return rule_error(BAD_VARIANT, f"bad variant for {self.game_id}: {problem}")
        refused = self.check_variant(variant)
        return rule_error(BAD_VARIANT, f"bad variant for {self.game_id}: {refused}") if refused else variant

    def check_variant(self, variant: VariantT) -> str | None:
        """A reason the variant is refused beyond its Struct's own constraints (e.g. two fields that
        do not go together), or None."""
        return None

    def variant_text(self, variant: VariantT) -> str:
        """Canonical text for the deal key: sorted name=value pairs."""
        return variant_key(msgspec.structs.asdict(variant))


def variant_key(fields: dict[str, Any]) -> str:  # Any: a variant's JSON values
    """Canonical variant text: name=value pairs sorted by name, e.g. "suits=2". Part of every deal
    key (a change here changes every deal) and the key of the statistics tables."""
    return ",".join(f"{name}={fields[name]}" for name in sorted(fields))


# Some registered game's rules, whichever: the registry holds every game, so its board and variant
# types are each game's own (a GameState's board and variant are that game's, read through them).
AnyRules = GameRules[Any, Any]  # Any: each game's own board and variant
