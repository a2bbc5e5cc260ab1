"""When Redis cannot keep up, as the gateway answers it: sockets get `s2c.error unavailable`, HTTP gets 503
with Retry-After; neither is a crash. The errors that mean it and the throttled warning are
services/runtime/unavailable.py's.
"""

from __future__ import annotations

import logging

from ...runtime.unavailable import UNAVAILABLE_ERRORS, Warnings, cause_of

__all__ = ["RETRY_AFTER_SECONDS", "UNAVAILABLE_ERRORS", "cause_of", "warnings"]

log = logging.getLogger("arena.gateway")
RETRY_AFTER_SECONDS = 1

warnings = Warnings(log)
