"""Pieces of the game service: the in-process cache of live games and the service's answers."""
