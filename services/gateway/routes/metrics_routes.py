"""GET /metrics: Prometheus's text format, for the scraper (not in the API schema).

HTTP requests themselves are counted by Litestar's Prometheus middleware (create_app), grouped by route
template so game ids do not make a series each; the arena's own metrics are in services/metrics/.
"""

from __future__ import annotations

from litestar import Response, get
from litestar.datastructures import State
from litestar.di import NamedDependency
from litestar.plugins.prometheus import PrometheusConfig
from litestar.enums import ScopeType
from prometheus_client import CONTENT_TYPE_LATEST

from ...metrics.exposition import read_redis_figures, render, sample_fanout
from ...validator.public import validator_status
from ..links.fanout import Fanout

METRICS_PATH = "/metrics"


def http_metrics() -> PrometheusConfig:
    # HTTP only: a websocket "request" lasts the whole socket; sockets are counted by the game socket.
    return PrometheusConfig(
        app_name="patience-arena", prefix="arena_http", group_path=True, scopes={ScopeType.HTTP},
        exclude=[METRICS_PATH], exclude_unhandled_paths=True,
    )


@get(METRICS_PATH, include_in_schema=False)
async def metrics(state: State, fanout: NamedDependency[Fanout]) -> Response[bytes]:
    await read_redis_figures(lambda: validator_status(state.redis))  # the route composes: metrics imports no service
    sample_fanout(fanout)
    return Response(render(), media_type=CONTENT_TYPE_LATEST)
