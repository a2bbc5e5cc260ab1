"""Daily challenges, leaderboards and players' statistics: pure deciders and projections, and the
Redis adapters and services around them (wired into the gateway by services/gateway/wiring.py).

Pure (no I/O, no clock):
- catalogue       the dailies (CATALOGUE), ChallengeRef (key ``<date>/<game>/<variant>``, its hours),
                  challenges_of(date), parse_challenge_key(text), utc_date_of(ms).
- winnable        check_for(game): the exact solver where one proves a deal winnable.
- derivation      day_key / derive_seed / pick_seed, commitment / verify_commitment; new_salt (the one
                  impure function: a random salt).
- events          the challenge and attempt events (tagged msgspec Structs), to_new_event / from_stored.
- challenge       decide/evolve for a challenge (prepare, close, reveal) and an attempt (start, finish, end,
                  verdict); public_info(state, now_ms).
- review_decider  an operator's decision (clear, reject) on a win under the human-speed review.
- ranking         the leaderboard's sorted-set members and competition ranks.
- statistics      FinishedGame facts -> PlayerStats: project(facts), record(stats, fact).
Adapters and services (Redis, the game service):
- service         TournamentService: challenge streams, attempts as games, the leaderboard; days (prepare
                  and settle a day), results (the game service's results hook), scheduler (the task in
                  every process), ghost (ghost races on a revealed deal).
- leaderboard     RedisLeaderboard and its Lua scripts (leaderboard_scripts).
- review_desk     the operators' list of wins under review (`arena review`).
- accounts        AccountStore: names and argon2id password hashes.
- stats_store     the statistics as a stored projection, told of every end; stats_view: its HTTP shape.
May import engine/ and the services below it (games, store, redis, validator, races for ghosts, the
server's runtime: the solver pool, identity); never the gateway.
"""
