"""The Decider: initial_state, decide(intent, state) -> events, evolve(state, event) -> state.

This module holds the life cycle every game shares (finished games, resign, undo, counting moves,
status after each move) and hands the game's own rules to its module.

A lost game stays lost: it takes an undo where the game has one (Spider), never a resign, which
would rewrite the result to "abandoned".
"""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import GAME_OVER, NOT_SUPPORTED, NOTHING_TO_UNDO, RuleError, rule_error
from .events import AnyEvent, GameResigned, MoveUndone
from .intents import AnyIntent, ResignIntent, UndoIntent
from .registry import rules_for
from .rules import GameRules
from .state import ABANDONED, FINISHED, IN_PROGRESS, LOST, WON, GameState, PlayerView


def initial_state(game: str, variant: dict[str, Any] | None, seed: int) -> GameState | RuleError:
    rules = rules_for(game)
    if isinstance(rules, RuleError):
        return rules
    parsed = rules.parse_variant(variant)
    if isinstance(parsed, RuleError):
        return parsed
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        return rule_error("bad_seed", f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
    board = rules.deal(parsed, seed)
    return GameState(game, parsed, seed, board, status=rules.outcome(board, parsed))


def _rules(state: GameState) -> GameRules:
    rules = rules_for(state.game)
    assert not isinstance(rules, RuleError), rules
    return rules


def decide(intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
    rules = _rules(state)
    if state.status in FINISHED:
        return rule_error(GAME_OVER, f"the game is {state.status}; no further move is accepted")
    if isinstance(intent, ResignIntent):
        if state.status == LOST:
            hint = " (undo is still possible)" if rules.has_undo and state.history else ""
            return rule_error(GAME_OVER, f"the game is lost and stays lost: there is nothing to resign{hint}")
        return [GameResigned()]
    if isinstance(intent, UndoIntent):
        if not rules.has_undo:
            return rule_error(NOT_SUPPORTED, f"{rules.title} has no undo")
        if not state.history:
            return rule_error(NOTHING_TO_UNDO, "nothing to undo: no move has been made")
        return [MoveUndone()]
    if state.status == LOST:
        hint = " (undo is still possible)" if rules.has_undo else ""
        return rule_error(GAME_OVER, f"the game is lost: no legal move remains{hint}")
    return rules.decide(intent, state)


def evolve(state: GameState, event: AnyEvent) -> GameState:
    rules = _rules(state)
    if isinstance(event, GameResigned):
        return msgspec.structs.replace(state, status=ABANDONED)
    if isinstance(event, MoveUndone):
        board = state.history[-1]
        return msgspec.structs.replace(
            state,
            board=board,
            history=state.history[:-1],
            moves=state.moves - 1,
            undos=state.undos + 1,
            status=rules.outcome(board, state.variant),
        )
    board = rules.apply(state.board, event, state.variant)
    return msgspec.structs.replace(
        state,
        board=board,
        history=state.history + (state.board,) if rules.has_undo else (),
        moves=state.moves + 1,
        status=rules.outcome(board, state.variant),
    )


def play(intent: AnyIntent, state: GameState) -> tuple[GameState, list[AnyEvent]] | RuleError:
    """decide then evolve: the state after a legal intent, with its events."""
    events = decide(intent, state)
    if isinstance(events, RuleError):
        return events
    for event in events:
        state = evolve(state, event)
    return state, events


_UNDO, _RESIGN = UndoIntent(), ResignIntent()


def legal_moves(state: GameState) -> list[AnyIntent]:
    """Every intent decide accepts now: the game's own moves, then undo, then resign.

    Resign comes last so a caller that takes the first listed move never gives up by accident; a
    random player should leave it out (it ends the game at once).
    """
    if state.status in FINISHED:
        return []
    rules = _rules(state)
    moves = list(rules.legal_moves(state)) if state.status == IN_PROGRESS else []
    if rules.has_undo and state.history:
        moves.append(_UNDO)
    if state.status == IN_PROGRESS:
        moves.append(_RESIGN)
    return moves


def player_view(state: GameState) -> PlayerView:
    rules = _rules(state)
    return PlayerView(
        game=state.game,
        variant=msgspec.structs.asdict(state.variant),
        status=state.status,
        moves=state.moves,
        undos=state.undos,
        piles=rules.piles(state),
        legal=tuple(legal_moves(state)),
        info=rules.info(state),
    )


def hidden_cards(state: GameState) -> frozenset[int]:
    """Cards the player may not see now. Once a game is won or abandoned nothing stays hidden."""
    if state.status in FINISHED:
        return frozenset()
    return _rules(state).hidden_cards(state.board)


def is_over(state: GameState) -> bool:
    """No further action of any kind: won, abandoned, or lost with nothing left (not even an undo).
    A lost Spider game with moves to undo is not over: an undo brings it back into play."""
    if state.status in FINISHED:
        return True
    return state.status == LOST and not (_rules(state).has_undo and state.history)


