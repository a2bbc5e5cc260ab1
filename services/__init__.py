"""The services around the engine: each package one capability, none knowing a game rule.

store/ (event streams on Valkey: append at a version, read, the envelope), redis/ (clients, the
embedded Valkey and its supervisor, the lean pub/sub link), games/ (the game service: logs, live
games, secrecy of unseen cards, hints, retention), archive/ (finished games moved to an object
store and read through), validator/ (every win re-run from its log; replay files, read strictly and
signed), tournaments/ (daily challenges, leaderboards, review, accounts, statistics), races/
(same-seed races, standings, ratings), metrics/ (Prometheus, importing nothing above it), identity/
(tokens and sessions), runtime/ (settings, logging, clock and what every process runs on), gateway/
(the Litestar app: routes, sockets, links, guards). docs/architecture.md draws the layers.
"""
