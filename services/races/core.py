"""The race as a decider, pure: `decide(command, state, now_ms) -> events | RaceError`,
`evolve(state, event) -> state`, `fold(events) -> state`. No Redis, no clock of its own, no rule of
any game: a racer's game is the game service's; a race only sees how each one ended.

Life: lobby (join, leave, ready) -> countdown (the start time is fixed; the games are dealt) ->
started (racers play; finishes, presence) -> ended (all finished, or the time limit) -> final (every
winner's win checked by the replay validator; the standings are written). A rematch may follow an end.
"""

from __future__ import annotations

from msgspec import Struct, structs

from .commands import (
    AnyCommand, CheckWin, DealGames, Finish, Join, Leave, Presence, RaceError, Rematch, SetReady, SignalStart,
    StartCountdown, TimeUp,
)
from .events import (
    Outcome,
    AnyRaceEvent, CountdownStarted, GamesDealt, RaceCreated, RaceEnded, RacerFinished, RacerJoined, RacerLeft,
    RacerPresence, RacerReady, RaceStarted, RematchCreated, ResultsFinal, WinChecked,
)
from .standings import WON, standings

LOBBY, COUNTDOWN, STARTED, ENDED, FINAL = "lobby", "countdown", "started", "ended", "final"

RACE_FULL = "race_full"
RACE_STARTED = "race_started"
NOT_SEATED = "not_seated"
NOT_HOST = "not_host"
TOO_FEW = "too_few_racers"
NOT_OVER = "race_not_over"
NO_SUCH_RACE = "no_such_race"


class RaceState(Struct, frozen=True):
    race_id: str = ""
    version: int = 0  # events folded: the race stream's version
    created: RaceCreated | None = None
    seated: tuple[str, ...] = ()  # in the order they sat down
    ready: frozenset[str] = frozenset()
    countdown: CountdownStarted | None = None
    games: dict[str, str] = {}  # player -> game id, once dealt
    started_at_ms: int | None = None
    away: frozenset[str] = frozenset()  # racers whose sockets are all closed
    finishes: dict[str, RacerFinished] = {}
    ended: RaceEnded | None = None
    checks: dict[str, WinChecked] = {}
    final: ResultsFinal | None = None
    rematch: str | None = None

    @property
    def status(self) -> str:
        if self.final is not None:
            return FINAL
        if self.ended is not None:
            return ENDED
        if self.started_at_ms is not None:
            return STARTED
        return COUNTDOWN if self.countdown is not None else LOBBY

    @property
    def host(self) -> str | None:
        """The creator while seated, else whoever sat down first."""
        assert self.created is not None
        if self.created.host in self.seated:
            return self.created.host
        return self.seated[0] if self.seated else None

    @property
    def start_at_ms(self) -> int | None:
        return None if self.countdown is None else self.countdown.start_at_ms

    @property
    def deadline_ms(self) -> int | None:
        """When the time limit ends the race: the start signal plus the limit."""
        if self.countdown is None or self.created is None:
            return None
        return self.countdown.start_at_ms + self.created.time_limit_ms

    @property
    def over(self) -> bool:
        return self.ended is not None

    def winners_unchecked(self) -> list[str]:
        return [p for p, f in self.finishes.items() if f.result == WON and p not in self.checks]


def evolve(state: RaceState, event: AnyRaceEvent) -> RaceState:
    replace = structs.replace
    version = state.version + 1
    if isinstance(event, RaceCreated):
        return replace(state, race_id=event.race_id, created=event, version=version)
    if isinstance(event, RacerJoined):
        return replace(state, seated=state.seated + (event.player,), version=version)
    if isinstance(event, RacerLeft):
        seated = tuple(p for p in state.seated if p != event.player)
        return replace(state, seated=seated, ready=state.ready - {event.player}, version=version)
    if isinstance(event, RacerReady):
        ready = state.ready | {event.player} if event.ready else state.ready - {event.player}
        return replace(state, ready=ready, version=version)
    if isinstance(event, CountdownStarted):
        return replace(state, countdown=event, version=version)
    if isinstance(event, GamesDealt):
        return replace(state, games=dict(event.games), version=version)
    if isinstance(event, RaceStarted):
        return replace(state, started_at_ms=event.at_ms, version=version)
    if isinstance(event, RacerPresence):
        away = state.away - {event.player} if event.connected else state.away | {event.player}
        return replace(state, away=away, version=version)
    if isinstance(event, RacerFinished):
        return replace(state, finishes={**state.finishes, event.player: event}, version=version)
    if isinstance(event, RaceEnded):
        return replace(state, ended=event, version=version)
    if isinstance(event, WinChecked):
        return replace(state, checks={**state.checks, event.player: event}, version=version)
    if isinstance(event, ResultsFinal):
        return replace(state, final=event, version=version)
    if isinstance(event, RematchCreated):
        return replace(state, rematch=event.race_id, version=version)
    raise TypeError(f"not a race event: {type(event).__name__}")


def fold(events, state: RaceState | None = None) -> RaceState:
    state = state or RaceState()
    for event in events:
        state = evolve(state, event)
    return state


def decide(command: AnyCommand, state: RaceState, now_ms: int) -> list[AnyRaceEvent] | RaceError:
    """The events a command makes, or why it is refused. [] means: nothing to do (already so)."""
    if state.created is None:
        return RaceError(NO_SUCH_RACE, "there is no such race")
    if isinstance(command, (Join, Leave, SetReady, StartCountdown)):
        return _lobby(command, state, now_ms)
    if isinstance(command, DealGames):
        if state.countdown is None or state.games:
            return []
        return [GamesDealt(dict(command.games), now_ms)]
    if isinstance(command, SignalStart):
        return _start(state, now_ms)
    if isinstance(command, TimeUp):
        return _time_up(state, now_ms)
    if isinstance(command, Finish):
        return _finish(command, state, now_ms)
    if isinstance(command, Presence):
        if state.status != STARTED or command.player not in state.seated or command.player in state.finishes:
            return []
        if (command.player not in state.away) == command.connected:
            return []
        return [RacerPresence(command.player, command.connected, now_ms)]
    if isinstance(command, CheckWin):
        return _check(command, state, now_ms)
    if isinstance(command, Rematch):
        if not state.over:
            return RaceError(NOT_OVER, "a rematch follows the end of the race")
        if command.player not in state.seated:
            return RaceError(NOT_SEATED, "only a racer of this race may ask for its rematch")
        if state.rematch is not None:
            return []
        return [RematchCreated(command.new_race_id, command.player, now_ms)]
    raise TypeError(f"not a race command: {type(command).__name__}")


def _lobby(command, state: RaceState, now_ms: int) -> list[AnyRaceEvent] | RaceError:
    assert state.created is not None
    player = command.player
    if state.status != LOBBY:
        return RaceError(RACE_STARTED, "the race has left its lobby: seats are fixed")
    seated = player in state.seated
    if isinstance(command, Join):
        if seated:
            return []
        if len(state.seated) >= state.created.seats:
            return RaceError(RACE_FULL, f"all {state.created.seats} seats are taken")
        return [RacerJoined(player, now_ms)]
    if not seated:
        return RaceError(NOT_SEATED, "you do not have a seat in this race")
    if isinstance(command, Leave):
        left: list[AnyRaceEvent] = [RacerLeft(player, now_ms)]
        if len(state.seated) == 1:  # the last one out ends it: nobody is left to race
            left.append(RaceEnded("emptied", now_ms))
        return left
    if isinstance(command, SetReady):
        if (player in state.ready) == command.ready:
            return []
        events: list[AnyRaceEvent] = [RacerReady(player, command.ready, now_ms)]
        everyone = state.ready | {player} == set(state.seated)
        if command.ready and everyone and len(state.seated) >= 2:
            events.append(CountdownStarted(now_ms + state.created.countdown_ms, "all_ready", now_ms))
        return events
    # StartCountdown
    if player != state.host:
        return RaceError(NOT_HOST, "only the host may start the countdown before everyone is ready")
    if len(state.seated) < 2:
        return RaceError(TOO_FEW, "a race needs at least two racers")
    return [CountdownStarted(now_ms + state.created.countdown_ms, player, now_ms)]


def _start(state: RaceState, now_ms: int) -> list[AnyRaceEvent]:
    countdown = state.countdown
    if state.status != COUNTDOWN or not state.games or countdown is None or now_ms < countdown.start_at_ms:
        return []
    return [RaceStarted(countdown.start_at_ms)]


def _deadline(state: RaceState) -> int:
    deadline = state.deadline_ms
    assert deadline is not None, "a started race has its time limit"
    return deadline


def _time_up(state: RaceState, now_ms: int) -> list[AnyRaceEvent]:
    if state.status != STARTED or now_ms < _deadline(state):
        return []
    return _ending(state, RaceEnded("time_limit", _deadline(state)), now_ms)


def _finish(command: Finish, state: RaceState, now_ms: int) -> list[AnyRaceEvent] | RaceError:
    if state.status != STARTED or state.games.get(command.player) != command.game_id:
        return []  # not a game of this race in play: nothing to count
    if command.player in state.finishes:
        return []
    if command.at_ms >= _deadline(state):  # ended after the limit: it does not count
        return _time_up(state, max(now_ms, _deadline(state)))
    finished = RacerFinished(
        command.player, command.game_id, command.result, command.moves, command.time_ms, command.at_ms
    )
    events: list[AnyRaceEvent] = [finished]
    after = evolve(state, finished)
    if all(player in after.finishes for player in after.games):
        events += _ending(after, RaceEnded("all_finished", now_ms), now_ms)
    return events


def _check(command: CheckWin, state: RaceState, now_ms: int) -> list[AnyRaceEvent]:
    finished = state.finishes.get(command.player)
    if finished is None or finished.result != WON or finished.game_id != command.game_id:
        return []
    if command.player in state.checks:
        return []
    outcome: Outcome = "verified" if command.verified else "rejected"
    checked = WinChecked(command.player, outcome, "" if command.verified else command.reason, now_ms)
    after = evolve(state, checked)
    return [checked, *_finalizing(after, now_ms)]


def _ending(state: RaceState, ended: RaceEnded, now_ms: int) -> list[AnyRaceEvent]:
    after = evolve(state, ended)
    return [ended, *_finalizing(after, now_ms)]


def _finalizing(state: RaceState, now_ms: int) -> list[AnyRaceEvent]:
    """ResultsFinal once the race has ended and every win in it has its verdict."""
    if not state.over or state.final is not None or state.winners_unchecked() or not state.games:
        return []
    return [ResultsFinal(standings(state), now_ms)]
