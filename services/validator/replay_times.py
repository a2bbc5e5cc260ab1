"""Every time stamp of a replay file checked, and the time its result must say.

A file holds two kinds of time, all the server's clock in Unix ms: each entry's `at_ms` (when the
store appended it) and the times inside entries (the creation's `created_at_ms`, the first look's
and each hint's `at_ms`, stamped by the same process just before it appended them). A log the
server wrote has them in order; an edited one need not:

- stored times never run backwards, entry after entry;
- the creation is stamped no later than its own entry was stored;
- the first look comes no earlier than the creation, and no later than its entry was stored;
- every hint comes after the first look, after the hint before it, and no later than it was stored;
- the first engine event is stored no earlier than the first look.

The result's time runs from the first look to the last engine event: 0 when the game had none (a
deal lost as dealt, as its summary says), `null` when the deal was never shown. Format 1 files were
written with `null` for a game with no engine event, and still read so.
"""

from __future__ import annotations

from ..games.entries import GameShown
from ..games.record import GameLog
from .replay_format import FORMAT_UNSIGNED, ReplayFile


def file_time_ms(log: GameLog, form: int) -> int | None:
    """What `result.time_ms` must be for this log in a file of format `form`."""
    if log.shown is None:
        return None
    if not log.events:
        return None if form == FORMAT_UNSIGNED else 0
    return log.events[-1].ts_ms - log.shown.at_ms


def first_time_problem(file: ReplayFile, log: GameLog) -> tuple[int, str] | None:
    """(entry version, why) of the first time stamp out of order; None when all are in order."""
    stored = [item.at_ms for item in file.entries]
    for index in range(1, len(stored)):
        if stored[index] < stored[index - 1]:
            return index + 1, f"entry {index + 1} is stored at {stored[index]}, before entry {index} ({stored[index - 1]})"
    created = log.created.created_at_ms
    if created > stored[0]:
        return 1, f"the game is created at {created}, after its entry was stored ({stored[0]})"
    shown = log.shown
    if shown is None:
        return None
    shown_version = next(n for n, item in enumerate(file.entries, start=1) if isinstance(item.entry, GameShown))
    if not created <= shown.at_ms <= stored[shown_version - 1]:
        return shown_version, (f"the first look at {shown.at_ms} is not between the creation ({created}) "
                               f"and the time its entry was stored ({stored[shown_version - 1]})")
    previous = shown.at_ms
    for hint, version in zip(log.hints, log.hint_versions):
        if not previous <= hint.at_ms <= stored[version - 1]:
            return version, (f"the hint at {hint.at_ms} is not between the look or hint before it ({previous}) "
                             f"and the time its entry was stored ({stored[version - 1]})")
        previous = hint.at_ms
    if log.events and log.events[0].ts_ms < shown.at_ms:
        first = log.events[0]
        return first.stream_version, f"the first move is stored at {first.ts_ms}, before the first look ({shown.at_ms})"
    return None
