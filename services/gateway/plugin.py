"""The one init plugin: wires Redis, the services (games, tournaments, races), identity, limits and the fan-out.

Redis comes from `settings.redis_url` (`arena serve` starts the embedded server first when none
is set). The fan-out carries updates over Redis pub/sub, so several gateway processes on one
Redis show every move to every socket; the game log itself stays in the store. On a cluster URL the
fan-out uses sharded pub/sub: a game's updates go through its own slot's node.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from litestar import Litestar
from litestar.config.app import AppConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.exceptions import HTTPException, TooManyRequestsException
from litestar.plugins import InitPluginProtocol

from ..games.hints import Hints
from ..games.service import GameService
from ..identity.tokens import Identity, TokenClaims, load_or_create_secret
from ..redis.client import open_redis, parse_redis_url, server_client
from ..redis.lean_link import LeanLink
from ..redis.waiting_cluster import WaitingRedisCluster
from ..identity.sessions import Sessions
from ..runtime.settings import Settings
from ..runtime.young_collector import YoungCollector
from .guards.auth import current_claims, current_player
from .routes.catalog import CatalogController
from .errors import ApiError, api_error_response, http_error_response, unavailable_response
from .links.fanout import Fanout
from .guards.overload import UNAVAILABLE_ERRORS
from .links.pubsub_link import Link, PubSubLink
from .links.sharded_link import ShardedPubSubLink
from ..races.service import RaceService
from ..tournaments.service import TournamentService
from .wiring import ProcessServices
from .routes.hint_routes import HintsController
from .routes.game_routes import GamesController, health, ready
from .routes.account_routes import AccountsController
from .sockets.board_socket import announcer, board_socket
from .routes.daily_routes import DailiesController, StatsController
from .guards.limits import limit_middleware, register_limit_store, too_many_requests_handler
from .sockets.player_budget import PlayerBudgets
from ..runtime.logging import never_log
from ..metrics.exposition import forget_this_process
from ..store.replication import resolve_replica_ack
from .routes.metrics_routes import metrics
from .sockets.race_frames import RaceFanout
from .routes.race_replay_routes import GhostController, RaceReplayController
from .routes.race_routes import RacesController, RatingsController, join_link
from .sockets.race_socket import race_socket
from .routes.replay_routes import ReplaysController
from .routes.session_routes import PlayersController, SessionController, TicketsController
from .sockets.socket_routes import echo_socket, game_socket


log = logging.getLogger("arena.gateway")


def _service(state: State) -> GameService:
    return state.service


def _tournaments(state: State) -> TournamentService:
    return state.tournaments


def _races(state: State) -> RaceService:
    return state.races


def _sessions(state: State) -> Sessions:
    return state.sessions


def pubsub_link(url: str, pool_size: int, pool_timeout: float, *, lean: bool = False) -> Link:
    """The fan-out's own clients (not the store's: a subscriber connection is never given back to a pool);
    no I/O until used. A cluster gets sharded pub/sub, one server the classic kind; `lean` carries the
    counts and publishes over a lean link (services/redis/lean_link.py)."""
    plain_url, cluster = parse_redis_url(url)
    timeout = max(0.1, pool_timeout)
    if cluster:
        client = WaitingRedisCluster.from_url(plain_url, max_connections=pool_size, pool_timeout=pool_timeout)
        return ShardedPubSubLink(client, plain_url, LeanLink(client, reply_timeout=timeout) if lean else None)
    server = server_client(plain_url, pool_size=pool_size, pool_timeout=pool_timeout)
    return PubSubLink(server, LeanLink(server, reply_timeout=timeout) if lean else None)


class ArenaPlugin(InitPluginProtocol):
    def __init__(self, settings: Settings) -> None:
        if not settings.redis_url:
            raise ValueError("create_app needs settings.redis_url (`arena serve` starts an embedded Redis)")
        self.settings = settings
        secret = load_or_create_secret(settings.secret, settings.data_dir)
        never_log(secret)
        self.identity = Identity(secret, settings.token_ttl_seconds)
        self.budgets = PlayerBudgets(settings.rate_per_second, settings.rate_burst, settings.limit_games)
        self.pool_size, self.pool_timeout = settings.redis_pool_size, settings.redis_pool_timeout
        link = pubsub_link(settings.redis_url, settings.redis_pool_size, settings.redis_pool_timeout,
                           lean=settings.lean_redis)
        self.fanout = Fanout(link, confirm_timeout=max(1.0, settings.redis_pool_timeout))

    @asynccontextmanager
    async def lifespan(self, app: Litestar) -> AsyncIterator[None]:
        assert self.settings.redis_url, "arena serve names the Redis (its embedded one or REDIS_URL) before the app starts"
        client = await open_redis(self.settings.redis_url, pool_size=self.pool_size, pool_timeout=self.pool_timeout)
        try:
            ack = await resolve_replica_ack(self.settings.replica_acks, self.settings.replica_timeout_ms, client)
            log.info("appends wait for %s", f"{ack.replicas} replica(s), {ack.timeout_ms} ms" if ack else "the master only")
            app.state.redis = client
            running = ProcessServices(client, self.settings, replica_ack=ack)
            app.state.service, app.state.validators = running.games, running.validators
            app.state.tournaments = running.tournaments
            app.state.replay_keys = running.replay_keys
            app.state.hints = hints = Hints(running.games, budget=self.settings.hint_nodes)
            running.tournaments.board_changed = announcer(self.fanout, running.tournaments)
            app.state.races = running.races
            running.races.feed = RaceFanout(self.fanout)
            app.state.sessions = Sessions(client, self.identity, self.settings.ticket_ttl_seconds, lean=running.lean)
            # What the game socket's route reads from the state in one go (socket_routes.py says why).
            app.state.fanout, app.state.settings, app.state.budgets = self.fanout, self.settings, self.budgets
            register_limit_store(app, client)
            await self.fanout.start()
            running.start()
            collector = YoungCollector(self.settings.gc_young_ms / 1000)
            collector.start()
            try:
                yield
            finally:
                await collector.stop()
                hints.close()
                await running.stop()
                forget_this_process()
        finally:
            await self.fanout.aclose()  # what is queued is published first
            await client.aclose()

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        settings, identity, fanout, budgets = self.settings, self.identity, self.fanout, self.budgets
        app_config.lifespan.append(self.lifespan)
        app_config.dependencies.update(
            {
                "service": Provide(_service, sync_to_thread=False),
                "identity": Provide(lambda: identity, use_cache=True, sync_to_thread=False),
                "settings": Provide(lambda: settings, use_cache=True, sync_to_thread=False),
                "fanout": Provide(lambda: fanout, use_cache=True, sync_to_thread=False),
                "sessions": Provide(_sessions, sync_to_thread=False),
                "budgets": Provide(lambda: budgets, use_cache=True, sync_to_thread=False),
                "claims": Provide(current_claims),
                "player_id": Provide(current_player),
                "tournaments": Provide(_tournaments, sync_to_thread=False),
                "races": Provide(_races, sync_to_thread=False),
            }
        )
        app_config.signature_namespace.update(
            {
                "GameService": GameService,
                "TournamentService": TournamentService,
                "RaceService": RaceService,
                "Identity": Identity,
                "Settings": Settings,
                "Fanout": Fanout,
                "Sessions": Sessions,
                "TokenClaims": TokenClaims,
                "PlayerBudgets": PlayerBudgets,
            }
        )
        app_config.exception_handlers[ApiError] = api_error_response
        app_config.exception_handlers[HTTPException] = http_error_response
        app_config.exception_handlers[TooManyRequestsException] = too_many_requests_handler(settings)
        for error in UNAVAILABLE_ERRORS:
            app_config.exception_handlers[error] = unavailable_response
        app_config.middleware.extend(limit_middleware(settings))
        app_config.route_handlers.extend(
            [PlayersController, SessionController, TicketsController, GamesController, CatalogController,
             ReplaysController, DailiesController, StatsController, AccountsController, RacesController,
             RatingsController, RaceReplayController, GhostController, health, ready, game_socket, board_socket,
             race_socket, metrics, HintsController, join_link]
        )
        if settings.bench_echo:
            app_config.route_handlers.append(echo_socket)
        return app_config
