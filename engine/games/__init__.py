"""One module per game, each defining RULES; engine.registry lists and registers them."""
