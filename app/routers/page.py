"""The web page for players: ``/`` and its static files under ``/static``.

The page is plain HTML, CSS and ES modules shipped inside the package (``app/static``, package
data), with no build step and nothing fetched from elsewhere. It calls only the public
``/v1`` API, like any third-party front end would.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"
# The page loads nothing from elsewhere; the browser enforces it.
CSP = ("default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
       "form-action 'self'; frame-ancestors 'none'")

router = APIRouter(include_in_schema=False)


@router.api_route("/", methods=["GET", "HEAD"])
async def index() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache", "Content-Security-Policy": CSP})


def static_files() -> StaticFiles:
    """Mounted at ``/static`` by ``create_app``."""
    return StaticFiles(directory=STATIC_DIR)
