"""Live same-seed races. A map of the package:

- events.py    the race stream's events (storage schema, golden bytes in tests/golden/race-events.json)
- commands.py  validated commands and the lobby's bounds (check_settings turns input into settings)
- core.py      the race Decider, pure: decide(command, state, now) -> events | RaceError, evolve, fold
- standings.py the ranking key and the standings (won, time, moves; then ended, not finished, refused)
- progress.py  a racer's progress from their view: counts and a status, never a card
- view.py      the public view every response and frame carries (no seed before the end)
- deal.py      a fresh secret winnable seed per race and its commitment; deal_pool.py keeps some ready
- store.py     Redis: the race stream, join codes, one race at a time, presence, the due set
- service.py   RaceService: reading, deciding (append with the expected version), advance, the effects
               (dealing, the start signal, the end's wrap-up, rating)
- lobby.py     its lobby commands: create, join (by id or code), leave, ready, start, rematch
- hooks.py     what it hears (moves, game ends, seeds, verdicts, presence) and its feed's protocol
- timers.py    when each race next needs a look: the due set every process polls, and a timer here
- ratings.py   openskill Plackett-Luce ratings per game and variant, a projection of the race logs
- wiring.py    the validator's verdicts for the races, and a race seed authority from the logs alone
               (the process wiring itself is services/gateway/wiring.py)
"""
