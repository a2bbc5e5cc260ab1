"""The browser client: plain ES modules, HTML and CSS served as static files by the gateway."""

from __future__ import annotations

from pathlib import Path

# The folder the gateway serves at "/" (index.html is the start page).
STATIC_DIR = Path(__file__).parent / "static"

__all__ = ["STATIC_DIR"]
