"""`arena serve`: the gateway under uvicorn, on the embedded Redis unless REDIS_URL is set.

Settings come from the environment (services/runtime/settings.py); --host, --port and --data-dir override
them. Ctrl-C or SIGTERM stops uvicorn first (sockets closed, channels drained), then Redis (its
append-only file flushed), so no acknowledged move is lost.

The embedded Redis is supervised (services/redis/supervisor.py): restarted on its port if it dies, killed
by the kernel if this process is, and its data folder is locked against a second server.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import signal
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="address to listen on (env ARENA_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port (env ARENA_PORT, default 8000; 0 = any free port)")
    parser.add_argument(
        "--data-dir", type=Path, help="folder of the embedded Redis and the secret (env ARENA_DATA_DIR, default ./data)"
    )
    parser.add_argument("--workers", type=int, help="server processes sharing the port, one per core "
                        "(env ARENA_WORKERS, default 1; see cli/serve_workers.py)")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from engine.registry import load_game_module
    from services.gateway import create_app
    from services.redis.embedded import EmbeddedRedis, RedisServerError, RedisServerNotFound
    from services.redis.supervisor import SupervisedRedis
    from services.runtime.logging import configure_logging, never_log
    from services.runtime.settings import settings_from_environment

    overrides = {"host": args.host, "port": args.port, "data_dir": args.data_dir, "workers": args.workers}
    settings = settings_from_environment().with_overrides(**overrides)
    # Before anything logs: the supervisor's "Redis died, restarted" and uvicorn's lines are JSON too.
    configure_logging(settings.log_level)
    if settings.secret:
        never_log(settings.secret)
    for name in settings.game_modules:
        try:
            load_game_module(name)
        except (ImportError, ValueError) as exc:
            print(f"arena serve: cannot add the game module {name} (ARENA_GAME_MODULES): {exc}", file=sys.stderr)
            return 1
    embedded = None
    if not settings.redis_url:
        embedded = SupervisedRedis(EmbeddedRedis(settings.data_dir / "redis"))
        try:
            embedded.start()
        except (RedisServerError, RedisServerNotFound) as exc:
            print(f"arena serve: cannot start the embedded Redis: {exc}", file=sys.stderr)
            return 1
        settings = settings.with_overrides(redis_url=embedded.url)
    try:
        if settings.workers > 1:  # this process keeps Redis; the workers serve (cli/serve_workers.py)
            from cli.serve_workers import serve_workers

            return serve_workers(settings)
        config = uvicorn.Config(
            create_app(settings),
            host=settings.host,
            port=settings.port,
            log_level=settings.log_level,
            log_config=None,  # services/runtime/logging.py configured every logger: JSON lines with the ids
            access_log=False,  # its lines carry the query string, where a websocket's token travels
            ws=settings.ws_impl,
            http=settings.http_impl,
            ws_per_message_deflate=settings.ws_deflate,
            # The socket refuses frames over max_frame_bytes itself (a clear s2c.error); this stops abuse earlier.
            ws_max_size=max(64 * 1024, settings.max_frame_bytes),
            ws_ping_interval=20.0,
            timeout_graceful_shutdown=10,
            lifespan="on",
        )
        server = _arena_server(config, f"embedded {embedded.url}" if embedded is not None else settings.redis_url or "")
        # Start-up objects (modules, the app) never die: keep them out of every collection, and collect the
        # young generation less often (thousands of sockets' short-lived frames), which trims latency spikes.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*settings.gc_thresholds)
        sockets = None
        if settings.reuse_port:  # a worker of `arena serve --workers`: its own socket on the shared port
            from cli.serve_workers import worker_socket

            sockets = [worker_socket(settings.host, settings.port)]
        server.run(sockets=sockets)  # SIGINT/SIGTERM: a clean stop of the app and its lifespan, then back here
        return 0 if server.started else 1
    finally:
        if embedded is not None:
            embedded.stop()


def _arena_server(config, redis_text: str):
    import uvicorn

    class ArenaServer(uvicorn.Server):
        async def startup(self, sockets=None) -> None:
            await super().startup(sockets=sockets)
            if self.started:  # print the real port, when --port 0 asked for any free one
                host, port = self.servers[0].sockets[0].getsockname()[:2]
                print(f"Patience Arena serving at http://{host}:{port}/  (redis: {redis_text})", flush=True)

        @contextlib.contextmanager
        def capture_signals(self):
            # As uvicorn's, minus re-raising the signal at the end: Redis still has to stop after us.
            signals = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in signals}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    return ArenaServer(config)
