"""Every Redis key and channel name the services use, in one place.

A game's keys share the cluster hash tag `{<game id>}` so they sit in one slot and one Lua script may
touch them together. Keys owned by one player, one challenge or one race carry that owner's id as their
hash tag for the same reason. Nothing else in the project spells a key.
"""

from __future__ import annotations

PREFIX = "arena:"
GAME_STREAMS = "game"  # the store's default namespace: game logs; others: "daily", "race"
RACE_STREAMS = "race"
GAME_PREFIX = f"{PREFIX}{GAME_STREAMS}:"
# Every namespace the event store knows: a typo must not open a stream nothing else ever reads.
NAMESPACES = frozenset({GAME_STREAMS, "daily", RACE_STREAMS})


def log_key(stream_id: str, namespace: str = GAME_STREAMS) -> str:
    """An event stream: entry id `0-<version>`, one field `e` = msgpack StoredEvent. No TTL.
    Game logs are `arena:game:{<id>}:log`; a challenge's or a race's stream lives in its own namespace,
    so nothing that scans game logs ever mistakes one for a game."""
    return f"{PREFIX}{namespace}:{{{stream_id}}}:log"


def moves_key(stream_id: str, namespace: str = GAME_STREAMS) -> str:
    """Hash: client move id -> the stream version the move was stored at (idempotent retries)."""
    return f"{PREFIX}{namespace}:{{{stream_id}}}:moves"


def meta_key(game_id: str) -> str:
    """Projection of a game's log: owner, status, kind, shown time. Rebuildable from the log."""
    return f"{PREFIX}meta:{{{game_id}}}"


def player_games_key(player_id: str) -> str:
    """Projection: a player's games by creation time (sorted set). Rebuildable from the logs."""
    return f"{PREFIX}player:{{{player_id}}}:games"


def player_new_game_request_key(player_id: str, request_key: str) -> str:
    """A new game's request key (POST /api/games' Idempotency-Key) -> the game id reserved for it, so that
    the same request sent again makes no second game. Expires a day after the first ask."""
    return f"{PREFIX}player:{{{player_id}}}:new-game:{request_key}"


def player_in_play_key(player_id: str) -> str:
    """Projection: a player's casual and practice games in play (sorted set by creation time; a new one
    abandons them), with a mark that the index was kept whole (services/games/in_play.py). Rebuildable."""
    return f"{PREFIX}player:{{{player_id}}}:in-play"


def player_stats_key(player_id: str) -> str:
    """Projection: a player's statistics, folded (msgpack). Rebuildable from the logs (delete it)."""
    return f"{PREFIX}player:{{{player_id}}}:stats"


def player_stats_reopenable_key(player_id: str) -> str:
    """Beside the statistics: the player's latest lost casual and practice games (sorted set by end)."""
    return f"{PREFIX}player:{{{player_id}}}:stats-reopenable"


def token_generation_key(player_id: str) -> str:
    """A player's token generation (integer, absent = 0): a token issued at a lower one is signed out.
    Expires a token lifetime after the last sign-out, when every token it ended has expired too."""
    return f"{PREFIX}player:{{{player_id}}}:token_gen"


def ticket_key(ticket: str) -> str:
    """A one-use socket ticket -> "<player id> <token generation>"; expires with the ticket (seconds)."""
    return f"{PREFIX}ticket:{ticket}"


# Litestar's RedisStore for the HTTP rate limits puts this and a colon before its keys
# ("arena:rate:RateLimitMiddleware::<limit>:<address>"); each expires with its window.
RATE_LIMIT_NAMESPACE = f"{PREFIX}rate"


def updates_channel(game_id: str) -> str:
    """Pub/sub channel carrying a game's versioned updates between gateway processes. It carries the game's
    hash tag: on a cluster it is a shard channel in the slot (and on the node) of the game's log."""
    return f"{PREFIX}updates:{{{game_id}}}"


LOG_KEY_PATTERN = f"{GAME_PREFIX}{{*}}:log"  # SCAN pattern matching every game's stream
RACE_LOG_KEY_PATTERN = f"{PREFIX}{RACE_STREAMS}:{{*}}:log"  # ... and every race's stream


def game_id_of_log_key(key: str, namespace: str = GAME_STREAMS) -> str | None:
    """The stream id (a game's, by default) in a key `log_key` made, or None for any other key."""
    head, tail = f"{PREFIX}{namespace}:{{", "}:log"
    if key.startswith(head) and key.endswith(tail) and len(key) > len(head) + len(tail):
        return key[len(head) : -len(tail)]
    return None


# The validator's keys share the hash tag {validator}: one slot, so one MULTI may touch them together.
# A game's stream lives in its own slot; nothing needs both in one command.
VALIDATOR_TAG = "{validator}"


def submissions_key() -> str:
    """Stream of wins to check, read by the `validators` consumer group."""
    return f"{PREFIX}{VALIDATOR_TAG}:submissions"


def verdicts_key() -> str:
    """Hash: game id -> its verdict (msgpack), written once (HSETNX)."""
    return f"{PREFIX}{VALIDATOR_TAG}:verdicts"


def dead_letters_key() -> str:
    """Stream of submissions that kept failing, with the reason."""
    return f"{PREFIX}{VALIDATOR_TAG}:dead"


def unsettled_key() -> str:
    """Sorted set: game id -> creation ms, for games that may still end in a win not yet submitted."""
    return f"{PREFIX}{VALIDATOR_TAG}:unsettled"


def validator_counts_key() -> str:
    """Hash of counters: verified, rejected, dead."""
    return f"{PREFIX}{VALIDATOR_TAG}:counts"


def validator_attempts_key() -> str:
    """Hash: submission entry id -> failed checks so far (dead-lettered at the limit)."""
    return f"{PREFIX}{VALIDATOR_TAG}:attempts"


# Daily challenges: one challenge's keys share the hash tag `{<challenge key>}` (e.g.
# `{2026-12-01/spider/suits=2}`), so the leaderboard scripts touch them together in one slot.
DAILY_PREFIX = f"{PREFIX}daily:"


def daily_board_key(challenge: str) -> str:
    """Sorted set of a challenge's verified ranked wins: score 0, lexicographic ranking members."""
    return f"{DAILY_PREFIX}{{{challenge}}}:board"


def daily_entries_key(challenge: str) -> str:
    """Hash: player id -> msgpack leaderboard entry (result, moves, time, finish, ranking member)."""
    return f"{DAILY_PREFIX}{{{challenge}}}:entries"


def daily_status_key(challenge: str) -> str:
    """Hash: player id -> the entry's status (playing, pending, verified, rejected, lost, abandoned, guest)."""
    return f"{DAILY_PREFIX}{{{challenge}}}:status"


def daily_counts_key(challenge: str) -> str:
    """Hash: status -> how many players have it, and `final` once the leaderboard is final."""
    return f"{DAILY_PREFIX}{{{challenge}}}:counts"


def daily_review_key(challenge: str) -> str:
    """Set: the players whose verified win is under the human-speed review (marked until an operator
    clears it); a projection of their attempt streams' ReviewFlagged and ReviewCleared."""
    return f"{DAILY_PREFIX}{{{challenge}}}:review"


def daily_stream_id(challenge: str) -> str:
    """Event stream (namespace "daily", see log_key) of a challenge's own life: prepared, closed, revealed."""
    return f"daily-{challenge}"


def daily_unrevealed_key() -> str:
    """Set: keys of the prepared challenges whose seed is not revealed yet, whatever their age (the
    scheduler settles each, so days of downtime leave no day unrevealed). A projection of the
    challenge streams: rebuilt from them by DailyScheduler at start-up."""
    return f"{DAILY_PREFIX}{{unrevealed}}"


def daily_stream_pattern() -> str:
    """SCAN pattern of every challenge stream's log key (namespace "daily", ids `daily-<key>`)."""
    return f"{DAILY_PREFIX}{{daily-*}}:log"


def attempt_stream_id(challenge: str, player_id: str) -> str:
    """Event stream of one player's attempt at a challenge (one per player: the store's version 0 race)."""
    return f"attempt-{challenge}-{player_id}"


# Accounts: a named account keeps the player id its guest had.
def account_key(player_id: str) -> str:
    """Hash: name (as typed), password hash (argon2id), created_at_ms."""
    return f"{PREFIX}account:{{{player_id}}}"


def account_name_key(folded_name: str) -> str:
    """String: the player id owning a display name, by its case-folded form (SET NX claims it)."""
    return f"{PREFIX}account-name:{{{folded_name}}}"


# Races: a race's own keys share the hash tag `{<race id>}` (its stream is `log_key(id, "race")`).
RACE_PREFIX = f"{PREFIX}race:"


def race_code_key(code: str) -> str:
    """String: the race id a short join code names (SET NX claims a code)."""
    return f"{PREFIX}race-code:{{{code}}}"


def player_race_key(player_id: str) -> str:
    """String: the race a player has a seat in now (one at a time); cleared when they leave or it ends."""
    return f"{PREFIX}player:{{{player_id}}}:race"


def race_presence_key(race_id: str) -> str:
    """Hash: racer -> how many race sockets they have open (a count across gateway processes)."""
    return f"{RACE_PREFIX}{{{race_id}}}:presence"


def races_due_key() -> str:
    """Sorted set: race id -> when it next needs a look (its start signal, its time limit, a verdict)."""
    return f"{PREFIX}{{races}}:due"


def race_channel(race_id: str) -> str:
    """Pub/sub channel carrying a race's versioned s2c.race frames between gateway processes; with the race's
    hash tag, so on a cluster it is a shard channel on the node of the race's keys."""
    return f"{PREFIX}race-updates:{{{race_id}}}"


def racer_channel(race_id: str, player_id: str) -> str:
    """Pub/sub channel carrying one racer's versioned progress (counts only) in a race (the race's slot too)."""
    return f"{PREFIX}race-progress:{{{race_id}}}:{player_id}"


# Ratings per game and variant: one board's keys share the hash tag `{ratings:<game>/<variant>}`.
def ratings_key(board: str) -> str:
    """Hash: player id -> msgpack rating (mu, sigma, races)."""
    return f"{PREFIX}{{ratings:{board}}}:players"


def ratings_board_key(board: str) -> str:
    """Sorted set: player id -> the rating's conservative value (mu - 3 sigma), for the leaderboard."""
    return f"{PREFIX}{{ratings:{board}}}:board"


def ratings_rated_key(board: str) -> str:
    """Hash: race id -> when its results were rated (each race counts once)."""
    return f"{PREFIX}{{ratings:{board}}}:rated"


def ratings_changes_key(board: str) -> str:
    """Hash: race id -> msgpack {player: (rating before or None, rating after)}: what each race changed."""
    return f"{PREFIX}{{ratings:{board}}}:changes"


def ratings_lock_key(board: str) -> str:
    """String: the one process rating a race of this board now (SET NX PX)."""
    return f"{PREFIX}{{ratings:{board}}}:lock"


def race_deals_key(board: str) -> str:
    """List: proven-winnable secret deals (msgpack) chosen ahead for new races of a board, each used once."""
    return f"{PREFIX}race-deals:{{{board}}}"


def scheduler_lock_key(job: str) -> str:
    """String: which process runs a daily job now (SET NX PX; released by its owner only)."""
    return f"{PREFIX}scheduler:{{{job}}}"


def retention_key() -> str:
    """Sorted set: casual or practice game id -> when it ended; trimmed after the retention period."""
    return f"{PREFIX}{{retention}}:ended"


def daily_board_version_key(challenge: str) -> str:
    """Counter: a challenge's leaderboard version, stepped on every change (pushes carry it)."""
    return f"{DAILY_PREFIX}{{{challenge}}}:version"


def board_channel(challenge: str) -> str:
    """Pub/sub channel of a challenge's leaderboard changes between gateway processes; in the slot of the
    challenge's leaderboard keys (its hash tag), as a shard channel on a cluster."""
    return f"{PREFIX}board:{{{challenge}}}"


# The archive tier (services/archive/): finished games whose log left Valkey for the object store.
def archive_due_key() -> str:
    """Sorted set: ended game id -> when the archiver should look at it next (its end plus the window)."""
    return f"{PREFIX}{{archive}}:due"


def archive_counts_key() -> str:
    """Hash of counters: archived (games), bytes (compressed objects written), corrupt (objects refused)."""
    return f"{PREFIX}{{archive}}:counts"


def archive_claim_key(game_id: str) -> str:
    """String: the process archiving this game now (SET NX PX), in the game's slot."""
    return f"{PREFIX}archive-claim:{{{game_id}}}"


def replay_keys_key() -> str:
    """Hash: replay-file signing key id -> its public key document (JSON); never trimmed, so files
    signed with a key rotated out still check (services/validator/replay_keyring.py)."""
    return f"{PREFIX}{{replay-keys}}"
