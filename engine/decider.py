"""The Decider: initial_state, decide(intent, state) -> events, evolve(state, event) -> state.

This module holds the life cycle every game shares (finished games, resign, undo, counting moves,
status after each move) and hands the game's own rules to its module.

A lost game stays lost: it takes an undo where the game has one (Spider, or any game in practice
play), never a resign, which would rewrite the result to "abandoned".

Undo is allowed where the game's rules have it, or where the state says `practice_undo` (whoever
starts the game decides: casual and practice play, never ranked). Finish plays the rest of a game
whose rules say it needs no choice: each of its moves is decided here like any other and becomes
its own event, so a log of a finished game is a log of ordinary moves.
"""

from __future__ import annotations

from typing import Any

import msgspec

from .errors import GAME_OVER, NOT_SUPPORTED, NOTHING_TO_FINISH, NOTHING_TO_UNDO, RuleError, rule_error
from .events import AnyEvent, GameResigned, MoveUndone
from .intents import AnyIntent, CastIntent, DealIntent, FinishIntent, RecycleIntent, ResignIntent, UndoIntent
from .registry import rules_for
from .rules import AnyRules
from .state import ABANDONED, FINISHED, IN_PROGRESS, LOST, WON, ActionView, GameState, PlayerView


def initial_state(
    game: Any, variant: Any, seed: Any, *, practice_undo: bool = False
) -> GameState | RuleError:
    # Any: unchecked input (a game id, a variant as JSON values, a seed), each checked below. Compiled
    # (setup.py), a typed parameter would raise TypeError at the call instead of the rule's error.
    rules = rules_for(game)
    if isinstance(rules, RuleError):
        return rules
    parsed = rules.parse_variant(variant)
    if isinstance(parsed, RuleError):
        return parsed
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
        return rule_error("bad_seed", f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
    board = rules.deal(parsed, seed)
    return GameState(game, parsed, seed, board, status=rules.outcome(board, parsed), practice_undo=practice_undo)


def _rules(state: GameState) -> AnyRules:
    rules = rules_for(state.game)
    assert not isinstance(rules, RuleError), rules
    return rules


def may_undo(state: GameState) -> bool:
    """Undo is part of this game: its rules have it, or it is played with practice undo."""
    return state.practice_undo or _rules(state).has_undo


def undo_assisted(state: GameState) -> bool:
    """An undo was taken that the game's own rules do not have: the game was played assisted."""
    return state.undos > 0 and not _rules(state).has_undo


def decide(intent: AnyIntent, state: GameState) -> list[AnyEvent] | RuleError:
    rules = _rules(state)
    if state.status in FINISHED:
        return rule_error(GAME_OVER, f"the game is {_WORDS[state.status]}: no further move is accepted")
    if isinstance(intent, ResignIntent):
        if state.status == LOST:
            hint = " (undo is still possible)" if may_undo(state) and state.history else ""
            return rule_error(GAME_OVER, f"the game is lost and stays lost: there is nothing to resign{hint}")
        return [GameResigned()]
    if isinstance(intent, UndoIntent):
        if not may_undo(state):
            return rule_error(NOT_SUPPORTED, f"{rules.title} has no undo in ranked and race play")
        if not state.history:
            return rule_error(NOTHING_TO_UNDO, "nothing to undo: no move has been made")
        return [MoveUndone()]
    if state.status == LOST:
        hint = " (undo is still possible)" if may_undo(state) and state.history else ""
        return rule_error(GAME_OVER, f"the game is lost: no legal move remains{hint}")
    if isinstance(intent, FinishIntent):
        return _finish(rules, state)
    return rules.decide(intent, state)


_WORDS = {WON: "won", ABANDONED: "resigned"}


def _finish(rules: AnyRules, state: GameState) -> list[AnyEvent] | RuleError:
    """Every move of the game's finishing line, each decided on the state the ones before made."""
    line = rules.finish_line(state.board, state.variant)
    if line is None:
        return rule_error(NOTHING_TO_FINISH, f"the rest still needs choices: {rules.finish_rule}")
    events: list[AnyEvent] = []
    for intent in line:
        decided = rules.decide(intent, state)
        if isinstance(decided, RuleError):  # a finishing line the rules refuse is the engine's bug
            raise AssertionError(f"{rules.game_id}: finishing move {intent!r} refused: {decided.message}")
        for event in decided:
            events.append(event)
            state = evolve(state, event)
    if state.status != WON:
        raise AssertionError(f"{rules.game_id}: the finishing line ends {state.status}, not won")
    return events


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
        history=state.history + (state.board,) if state.practice_undo or rules.has_undo else (),
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


_UNDO, _RESIGN, _FINISH = UndoIntent(), ResignIntent(), FinishIntent()


def legal_moves(state: GameState) -> list[AnyIntent]:
    """Every intent decide accepts now: the game's own moves, then undo, then resign.

    Resign comes last so a caller that takes the first listed move never gives up by accident; a
    random player should leave it out (it ends the game at once).
    """
    if state.status in FINISHED:
        return []
    rules = _rules(state)
    moves = list(rules.legal_moves(state)) if state.status == IN_PROGRESS else []
    if may_undo(state) and state.history:
        moves.append(_UNDO)
    if state.status == IN_PROGRESS:
        moves.append(_RESIGN)
    return moves


_ACTION_INTENTS: dict[str, AnyIntent] = {"deal": DealIntent(), "recycle": RecycleIntent(), "cast": CastIntent()}


def actions(state: GameState, legal: list[AnyIntent] | None = None) -> tuple[ActionView, ...]:
    """The game's buttons now: its own actions, undo where the game has one, finish, resign; each
    available or with the engine's refusal as its reason. Finish is not in `legal`: it is many moves.

    `legal` is legal_moves(state) when the caller has it: an action listed there is accepted, so only
    the others are decided (for their reasons). A view is built for every accepted move."""
    rules = _rules(state)
    listed = {type(intent) for intent in legal} if legal is not None else set()
    asked: list[tuple[str, AnyIntent]] = [(name, _ACTION_INTENTS[name]) for name in rules.actions]
    if may_undo(state):
        asked.append(("undo", _UNDO))
    asked += [("finish", _FINISH), ("resign", _RESIGN)]
    views = []
    for name, intent in asked:
        refusal = None if type(intent) in listed else _refusal(rules, intent, state)
        if refusal is None:
            views.append(ActionView(name, True))
        else:
            views.append(ActionView(name, False, refusal.code, refusal.message))
    return tuple(views)


def _refusal(rules: AnyRules, intent: AnyIntent, state: GameState) -> RuleError | None:
    if isinstance(intent, FinishIntent) and state.status == IN_PROGRESS:
        # Only whether a line exists: the view must not play the whole line out on every look.
        if rules.finish_line(state.board, state.variant) is None:
            return rule_error(NOTHING_TO_FINISH, f"the rest still needs choices: {rules.finish_rule}")
        return None
    decided = decide(intent, state)
    return decided if isinstance(decided, RuleError) else None


def player_view(state: GameState) -> PlayerView:
    rules = _rules(state)
    legal = legal_moves(state)
    return PlayerView(
        game=state.game,
        variant=msgspec.structs.asdict(state.variant),
        status=state.status,
        moves=state.moves,
        undos=state.undos,
        piles=rules.piles(state),
        legal=tuple(legal),
        info=rules.info(state),
        actions=actions(state, legal),
        notes=rules.notes(state),
    )


def hidden_cards(state: GameState) -> frozenset[int]:
    """Cards the player may not see now. Once a game is won or abandoned nothing stays hidden."""
    if state.status in FINISHED:
        return frozenset()
    return _rules(state).hidden_cards(state.board)


def is_over(state: GameState) -> bool:
    """No further action of any kind: won, abandoned, or lost with nothing left (not even an undo).
    A lost Spider game (or a lost game in practice play) with moves to undo is not over: an undo
    brings it back into play."""
    if state.status in FINISHED:
        return True
    return state.status == LOST and not (may_undo(state) and state.history)


