"""``/docs`` (Swagger UI) and ``/redoc`` (ReDoc) served with assets from the app itself.

The JavaScript and CSS come from the ``fastapi-offline`` package (which bundles Swagger UI and
ReDoc with their licences) and are mounted at ``/docs-assets``, so the docs work on a machine
with no internet access. A Content-Security-Policy keeps both pages from loading anything from
elsewhere. ReDoc's sidebar always draws the Redocly logo from its CDN (no option turns it off),
and the blocked request logged a console error: ReDoc's script is served at ``/docs-redoc.js``
with that one address replaced by an empty inline image, so nothing is asked of the CDN.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import fastapi_offline
from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/docs-assets"
ASSETS_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' blob:; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; worker-src 'self' blob:; connect-src 'self'; font-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)

REDOC_JS_URL = "/docs-redoc.js"
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='1' height='1'/%3E"

router = APIRouter(include_in_schema=False)


@cache
def _redoc_js() -> bytes:
    text = (ASSETS_DIR / "redoc.standalone.js").read_text(encoding="utf-8")
    assert text.count(REDOC_LOGO) == 1, "ReDoc's logo address moved: check app/routers/docs.py"
    return text.replace(REDOC_LOGO, EMPTY_IMAGE).encode("utf-8")


@router.get(REDOC_JS_URL)
async def redoc_js() -> Response:
    return Response(_redoc_js(), media_type="text/javascript; charset=utf-8", headers={"Cache-Control": "public, max-age=86400"})


def _page(html: HTMLResponse) -> HTMLResponse:
    html.headers["Content-Security-Policy"] = CSP
    return html


@router.get("/docs")
async def swagger_ui(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return _page(get_swagger_ui_html(
        openapi_url=f"{root}{request.app.openapi_url}",
        title=f"{request.app.title} - Swagger UI",
        swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
        swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
        swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
        swagger_ui_parameters={"validatorUrl": None},  # the validator badge would call out
    ))


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return _page(get_redoc_html(
        openapi_url=f"{root}{request.app.openapi_url}",
        title=f"{request.app.title} - ReDoc",
        redoc_js_url=f"{root}{REDOC_JS_URL}",
        redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
        with_google_fonts=False,
    ))


def static_files() -> StaticFiles:
    """Mounted at ``/docs-assets`` by ``create_app``."""
    return StaticFiles(directory=ASSETS_DIR)
