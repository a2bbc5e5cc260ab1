"""The gateway as an ASGI factory for granian (`bench gateway --granian`): settings from the environment,
REDIS_URL naming the bench's Redis. Not a way to run the product: `arena serve` is (uvicorn, its own
start-up and shutdown order); this exists so the bench can put granian's websocket stack beside uvicorn's."""

from __future__ import annotations


def app():
    from services.gateway import create_app
    from services.runtime.settings import settings_from_environment

    return create_app(settings_from_environment())
