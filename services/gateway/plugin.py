"""The one init plugin: wires Redis, the event store, the game service, identity and channels.

Redis comes from `settings.redis_url` (`arena serve` starts the embedded server first when none
is set). The channels plugin fans updates out over Redis pub/sub, so several gateway processes on
one Redis show every move to every socket; the game log itself stays in the store.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import redis.asyncio as aioredis
from litestar import Litestar
from litestar.channels import ChannelsPlugin
from litestar.config.app import AppConfig
from litestar.datastructures import State
from litestar.di import Provide
from litestar.plugins import InitPluginProtocol

from ..games.service import GameService
from ..games.appender import Appender
from ..identity import Identity, load_or_create_secret
from ..logging import never_log
from ..redis.client import open_redis, parse_redis_url
from ..settings import Settings
from ..metrics.exposition import forget_this_process
from ..store import EventStore
from ..store.replication import resolve_replica_ack
from .catalog import CatalogController
from .errors import ApiError, api_error_response
from .fanout import BatchingPubSubBackend
from ..validator.runtime import Validators
from .http import GamesController, PlayersController, current_player, health, ready
from .metrics_routes import metrics
from .replay_routes import ReplaysController
from .sockets import echo_socket, game_socket


log = logging.getLogger("arena.gateway")


def _service(state: State) -> GameService:
    return state.service


class ArenaPlugin(InitPluginProtocol):
    def __init__(self, settings: Settings) -> None:
        if not settings.redis_url:
            raise ValueError("create_app needs settings.redis_url (`arena serve` starts an embedded Redis)")
        self.settings = settings
        secret = load_or_create_secret(settings.secret, settings.data_dir)
        never_log(secret)
        self.identity = Identity(secret)
        # Pub/sub goes to one node even on a cluster (cluster pub/sub is broadcast); no I/O until used.
        plain_url, _ = parse_redis_url(settings.redis_url)
        self.pubsub_redis = aioredis.Redis.from_url(plain_url)
        self.fanout = BatchingPubSubBackend(redis=self.pubsub_redis)
        self.channels = ChannelsPlugin(
            backend=self.fanout,
            arbitrary_channels_allowed=True,
            subscriber_max_backlog=256,
            subscriber_backlog_strategy="dropleft",  # a slow socket loses old updates, then resyncs
        )

    @asynccontextmanager
    async def lifespan(self, app: Litestar) -> AsyncIterator[None]:
        client = await open_redis(self.settings.redis_url)
        try:
            ack = await resolve_replica_ack(self.settings.replica_acks, self.settings.replica_timeout_ms, client)
            log.info("appends wait for %s", f"{ack.replicas} replica(s), {ack.timeout_ms} ms" if ack else "the master only")
            store = EventStore(client, replica_ack=ack)
            app.state.redis = client
            validators = Validators(
                client, store, workers=self.settings.validators, review_floor_ms=self.settings.review_floor_ms
            )
            app.state.validators = validators
            app.state.service = GameService(
                store, client, cache_games=self.settings.cache_games, appender=Appender(store),
                results=validators.submitter,
            )
            validators.start()
            try:
                yield
            finally:
                await validators.stop()
                forget_this_process()
        finally:
            await client.aclose()
            await self.pubsub_redis.aclose()

    def on_app_init(self, app_config: AppConfig) -> AppConfig:
        settings, identity, fanout = self.settings, self.identity, self.fanout
        app_config = self.channels.on_app_init(app_config)
        app_config.lifespan.insert(0, self.lifespan)  # entered before channels, left after them
        app_config.dependencies.update(
            {
                "service": Provide(_service, sync_to_thread=False),
                "identity": Provide(lambda: identity, use_cache=True, sync_to_thread=False),
                "settings": Provide(lambda: settings, use_cache=True, sync_to_thread=False),
                "fanout": Provide(lambda: fanout, use_cache=True, sync_to_thread=False),
                "player_id": Provide(current_player),
            }
        )
        app_config.signature_namespace.update(
            {
                "GameService": GameService,
                "Identity": Identity,
                "Settings": Settings,
                "BatchingPubSubBackend": BatchingPubSubBackend,
            }
        )
        app_config.exception_handlers[ApiError] = api_error_response
        app_config.route_handlers.extend(
            [PlayersController, GamesController, CatalogController, ReplaysController, health, ready, metrics, game_socket]
        )
        if settings.bench_echo:
            app_config.route_handlers.append(echo_socket)
        return app_config
