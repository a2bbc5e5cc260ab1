"""HTTP routes, one module per resource, each thin: parse the request, call a service, shape the answer.

game_routes (games, health, readiness), session_routes (guest tokens, refresh, sign-out, socket
tickets), account_routes, daily_routes, race_routes, hint_routes, replay_routes (replay files, their
signing keys, the validator's figures), race_replay_routes (race replays, ghosts), catalog,
metrics_routes, schema_viewer, static_pages; bodies.py decodes every request body strictly,
api_docs.py says what the OpenAPI document cannot read from the handlers. They may import the
services, guards (auth) and links; never a socket module or the gateway's top.
"""
