"""Patience Arena's rules engine: pure and deterministic (no I/O, no clock, no `random`).

Decider shape: ``initial_state(game, variant, seed)``, ``decide(intent, state) -> events | RuleError``,
``evolve(state, event) -> state``; plus legal moves, the player's view, replay and the revealed deal.
"""

from .cards import Card
from .catalog import Catalog, GameEntry, catalog
from .decider import (
    actions, decide, evolve, hidden_cards, initial_state, is_over, legal_moves, may_undo, play, player_view,
    undo_assisted,
)
from .errors import RuleError
from .events import AnyEvent
from .intents import AnyIntent
from .replay import ReplayResult, fold, intent_of, replay, replay_events
from .registry import game_ids, register, rules_for, unregister
from .reveal import revealed_view
from .state import ABANDONED, IN_PROGRESS, LOST, WON, GameState, PileView, PlayerView

__all__ = [
    "ABANDONED", "IN_PROGRESS", "LOST", "WON", "AnyEvent", "AnyIntent", "Card", "Catalog", "GameEntry",
    "GameState", "PileView", "PlayerView", "ReplayResult", "RuleError", "catalog", "decide", "evolve", "fold",
    "game_ids", "hidden_cards", "initial_state", "intent_of", "is_over", "legal_moves", "play", "player_view",
    "register", "replay", "replay_events", "revealed_view", "rules_for", "unregister", "actions", "may_undo",
    "undo_assisted",
]
