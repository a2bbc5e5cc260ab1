"""The Litestar gateway: HTTP API, websockets and the web client's files. It parses, rate-limits and fans
out; it decides nothing (the services below do).

At the top: `app.py` (the app factory, create_app), `plugin.py` (the plugin that opens Redis and the
services for the app's lifespan and registers every route), `wiring.py` (one serving process's
services, wired to each other), `errors.py` (the one error body every HTTP answer and socket error
shares). Inside:

- `routes/`: the HTTP routes, one module per resource (games, sessions, accounts, dailies, races,
  hints, replays, race replays, catalogue, metrics, the schema viewer, static pages) and what they
  share (strict bodies, the OpenAPI notes).
- `sockets/`: one module per socket kind (game, race, leaderboard) and what every socket shares: the
  frames named by direction (messages.py), frame admission and budgets, versioned pushes, raw sends.
- `links/`: what crosses processes: the fan-out over Redis pub/sub (one server or sharded on a
  cluster) and this process's own sockets by channel.
- `guards/`: what every request or socket passes through: who is asking (auth), HTTP and frame rate
  limits, the overload answer, the request log.

Imports run downward: the top may import every part; routes and sockets may import guards and links;
guards import only the error shape and the socket frames they answer with; links import guards'
overload answer and Redis alone. None imports the top.
"""

from .app import create_app

__all__ = ["create_app"]
