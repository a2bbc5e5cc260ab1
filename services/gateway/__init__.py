"""The Litestar gateway: HTTP API, game websockets and the web client's files (see create_app)."""

from .app import create_app

__all__ = ["create_app"]
