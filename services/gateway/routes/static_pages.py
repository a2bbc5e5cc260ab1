"""The web client's folder, and the friendly page a browser gets for a URL that names nothing.

An unknown page URL (a mistyped link, an old bookmark) gets 404.html, a page of the client's own look
with a way back; every API URL (/api/, the sockets, /schema, /health, /ready, /metrics) keeps its
`{"code", "message"}` error body, which programs read (errors.py).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from litestar import Request, Response

API_PREFIXES = ("/api", "/ws", "/schema", "/health", "/ready", "/metrics")


def static_dir() -> Path:
    """The web client's folder: web_client.STATIC_DIR when the package provides it."""
    try:
        from web_client import STATIC_DIR

        return Path(STATIC_DIR)
    except ImportError:
        return Path(__file__).resolve().parents[2] / "web_client" / "static"


def is_page_request(request: Request) -> bool:
    """A GET or HEAD of a path outside the API: a person's browser, most likely, not a program."""
    path = request.url.path
    api = any(path == prefix or path.startswith(prefix + "/") or path.startswith(prefix + "-") for prefix in API_PREFIXES)
    return request.method in ("GET", "HEAD") and not api


@lru_cache(maxsize=1)
def _not_found_html() -> bytes | None:
    page = static_dir() / "404.html"
    return page.read_bytes() if page.is_file() else None


def not_found_page() -> Response[bytes] | None:
    """404.html with status 404; None when the client's folder has no such page."""
    html = _not_found_html()
    if html is None:
        return None
    return Response(html, status_code=404, media_type="text/html; charset=utf-8", headers={"Cache-Control": "no-cache"})
