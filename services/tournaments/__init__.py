"""Daily challenges: the pure core and its Redis adapters (not yet wired to HTTP or the game service).

Modules, pure first:
- catalogue    the six dailies (CATALOGUE), ChallengeRef (key ``<date>/<game>/<variant>``, opens/closes/final
               ms), challenges_of(date), parse_challenge_key(text), daily_for(game, variant), utc_date_of(ms).
- winnable     check_for(game) -> WinnabilityCheck(name, proves, fn): the exact solver for The Wish and
               Patient Pairs, "not lost at the deal" otherwise; register_check(game, check) plugs a solver in.
- derivation   day_key / derive_seed / pick_seed(secret, date, game, variant, is_winnable) -> SeedPick;
               commitment / verify_commitment; new_salt (the one impure function).
- events       the challenge and attempt events (tagged msgspec Structs, schema 1), to_new_event / from_stored.
- challenge    decide_challenge / evolve_challenge (prepare, close, reveal) and decide_attempt /
               evolve_attempt (start, finish, end at the grace, verdict); public_info(state, now_ms).
- ranking      ranking_key / ranking_member / parse_member (lexicographic sorted-set members), competition_ranks.
- statistics   FinishedGame facts -> PlayerStats: project(facts), record(stats, fact), daily_streak_on(stats, day).
Adapters (Redis):
- leaderboard  RedisLeaderboard: start, finish, promote, remove (EntryGate, for the replay verifier),
               finalize, page, standing, counts, is_final.
- accounts     AccountStore: register, upgrade_guest, verify, by_player (argon2id).
"""
