"""A serving process's runtime, shared by every service and command: none of it knows a game or a route.

settings.py (read from the environment once), logging.py (one JSON line a record), clock.py (the
wall clock, or a test's clock file), unavailable.py (which errors mean Redis is away),
solver_pool.py (the one worker process for the solvers), young_collector.py (the youngest
generation collected on a clock), faults.py (named kill points for the fault tests). They import
the store's key names at most.
"""
