"""One module per game; importing this package registers every game with engine.rules."""

from . import patient_pairs, spider, wading_pool, wish, wizard  # noqa: F401
