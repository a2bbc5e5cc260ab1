"""The app factory: the arena plugin, OpenAPI at /schema (its viewer served locally), the web client's files at "/"."""

from __future__ import annotations

from litestar import Litestar
from litestar.static_files import create_static_files_router

from ..runtime.settings import Settings
from .routes.metrics_routes import http_metrics
from .plugin import ArenaPlugin
from .sockets.raw_send import keep_raw_send
from .guards.request_log import request_log_middleware
from .routes.schema_viewer import openapi_config, viewer_files
from .routes.static_pages import static_dir


def create_app(settings: Settings) -> Litestar:
    folder = static_dir()
    folder.mkdir(parents=True, exist_ok=True)  # the router wants the folder to exist, even empty
    app = Litestar(
        route_handlers=[viewer_files(), create_static_files_router(path="/", directories=[folder], html_mode=True)],
        plugins=[ArenaPlugin(settings)],
        middleware=[request_log_middleware, http_metrics().middleware],
        openapi_config=openapi_config("Patience Arena"),
        debug=False,
        logging_config=None,  # services/runtime/logging.py (arena serve) set up every logger already: JSON lines
    )
    app.asgi_handler = keep_raw_send(app.asgi_handler)  # game sockets' data frames skip the per-message wrappers
    return app
