"""The archive tier: finished, verified games leave Valkey's memory for an object store, and every
reader reads through (objects.py: the store; archived_game.py: the object; pointer.py: what stays in
Valkey; archiver.py: the background task; read_through.py: the event store that reads both tiers)."""
