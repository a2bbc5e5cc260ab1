"""Placeholder: this game is being written (see issues 3 and 4)."""
