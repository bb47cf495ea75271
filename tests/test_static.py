"""The web page's files: small, shipped as package data, served by the app with their policy.

(The page's behaviour is tested in a real browser in test_page.py.)
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "app" / "static"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings())) as c:
        yield c


def test_page_is_small() -> None:
    """The whole page (HTML, scripts, styles, icon) stays under 150 KB uncompressed."""
    total = sum(p.stat().st_size for p in STATIC.rglob("*") if p.is_file())
    assert total < 150 * 1024, f"app/static is {total} bytes"


def test_every_page_file_is_package_data() -> None:
    """A non-editable install (the Docker image) ships every file of app/static."""
    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["app"]
    files = [p.relative_to(STATIC.parent).as_posix() for p in STATIC.rglob("*") if p.is_file()]
    assert files
    missing = [f for f in files if not any(fnmatch.fnmatch(f, pat) for pat in patterns)]
    assert missing == []


def test_page_loads_nothing_from_elsewhere() -> None:
    """No absolute URL in the page's own files: every script, style and icon is served here."""
    for path in STATIC.rglob("*"):
        if path.suffix in {".html", ".css", ".js"}:
            assert not re.search(r"(src|href|url)\s*[=(]\s*['\"]?(https?:)?//", path.read_text()), path


def test_index_and_assets_are_served(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert '<label for="rack">Rack</label>' in r.text
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', r.text):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/static/js/main.js").headers["content-type"].startswith(("text/javascript", "application/javascript"))
    assert client.head("/").status_code == 200


def test_docs_assets_are_served_locally(client: TestClient) -> None:
    for page, assets in (("/docs", ("/docs-assets/swagger-ui-bundle.js", "/docs-assets/swagger-ui.css")), ("/redoc", ("/docs-redoc.js",))):
        r = client.get(page)
        assert r.status_code == 200
        assert "cdn" not in r.text.lower()
        assert "default-src 'self'" in r.headers["content-security-policy"]
        for path in assets:
            assert path in r.text
            assert client.get(path).status_code == 200
    # ReDoc's script, served with its one outside address (the Redocly logo) made an inline image
    js = client.get("/docs-redoc.js")
    assert js.headers["content-type"].startswith("text/javascript")
    assert "cdn.redoc.ly" not in js.text and "redocly logo" in js.text
    assert "/" not in client.get("/openapi.json").json()["paths"]  # the page is not an API operation
