"""GET /api/catalog: the games this server plays, straight from the engine's catalogue.

No identity is needed: the catalogue is public and the same for everyone (titles, blurbs, variant
fields, named presets, action buttons and capabilities). Clients build their menus from it.
"""

from __future__ import annotations

from litestar import Controller, get

from engine import Catalog, catalog


class CatalogController(Controller):
    path = "/api/catalog"
    tags = ["games"]

    @get("/", sync_to_thread=False)
    def get_catalog(self) -> Catalog:
        """Every game, in menu order: what it is called, its variants and what it offers."""
        return catalog()


__all__ = ["CatalogController"]
