"""/schema: the API's OpenAPI document in Swagger UI, every file of the viewer served by this server.

Litestar's viewers load their scripts, styles, fonts and icon from a CDN, so /schema was a blank page
without internet. Here Swagger UI 5 (it reads OpenAPI 3.1, the version Litestar writes) comes from the
swagger-ui-bundle-v2 package and is served under /schema-viewer/; the icon is an empty one. The JSON
document stays at /schema/openapi.json.

Any other /schema path Litestar answers itself with an HTML "Error 404" page, returned by a route rather
than raised, so the app's error handlers never see it; the router refuses it first, and it gets the one
error shape of every other unknown API URL (errors.py).
"""

from __future__ import annotations

from pathlib import Path

from litestar import Request
from litestar.exceptions import NotFoundException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

VIEWER_PATH = "/schema-viewer"


def viewer_files() -> Router:
    return create_static_files_router(path=VIEWER_PATH, directories=[Path(swagger_ui_path)], include_in_schema=False)


def openapi_config(title: str) -> OpenAPIConfig:
    swagger = SwaggerRenderPlugin(
        js_url=f"{VIEWER_PATH}/swagger-ui-bundle.js",
        css_url=f"{VIEWER_PATH}/swagger-ui.css",
        standalone_preset_js_url=f"{VIEWER_PATH}/swagger-ui-standalone-preset.js",
        favicon='<link rel="icon" href="data:,">',
        path="/",
    )
    router = Router(path="/schema", route_handlers=[], include_in_schema=False, before_request=_refuse_unknown_path)
    return OpenAPIConfig(title=title, version="1", openapi_router=router, render_plugins=[swagger, JsonRenderPlugin()])


def _refuse_unknown_path(request: Request) -> None:
    # Litestar's catch-all of the schema router is the only one of its routes with a path parameter.
    if any("{path:" in path for path in request.route_handler.paths):
        raise NotFoundException(f"there is no schema document at {request.url.path}")
