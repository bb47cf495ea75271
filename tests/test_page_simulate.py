"""The page's Simulate panel (app/static/js/simulate.js) in a real browser: a streamed run shows
progress and a table that settles, its leader is the API's for the same seed, and Stop stops it.
The fixtures (the live app, Chromium) are tests/test_page.py's."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from test_page import MIDGAME, SHOTS, browser, open_page, page, post, server  # noqa: F401

QUERY = "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRST"


def test_a_simulation_in_the_page_ends_with_the_apis_leader(page: Page, server: str) -> None:  # noqa: F811
    open_page(page, server, QUERY)
    page.fill("#sim-seconds", "10")
    page.fill("#sim-plies", "1")
    page.fill("#sim-candidates", "4")
    page.fill("#sim-seed", "7")
    page.fill("#sim-iterations", "48")
    # 48 iterations end the run long before the 10 s budget, so it does not depend on the clock
    # and the API answers the same request with the same figures
    lines: list[str] = []
    page.on("response", lambda r: lines.append(r.url) if "/simulate" in r.url else None)
    page.click("#sim-run")
    expect(page.locator("#sim-stop")).to_be_visible()
    expect(page.locator("#sim-progress")).to_be_visible()
    expect(page.locator("#sim-table tbody tr")).to_have_count(4, timeout=20_000)
    expect(page.locator("#simulate[data-done='true']")).to_be_attached(timeout=30_000)
    expect(page.locator("#sim-stop")).to_be_hidden()
    status = page.locator("#sim-status").inner_text()
    assert re.search(r"\d+ iterations in [\d.]+ s", status), status
    api = post(server, "/v1/games/crossplay/simulate", {
        "board": MIDGAME, "rack": "AEINRST", "seconds": 10, "plies": 1, "candidates": 4, "iterations": 48, "seed": 7})
    assert api["reason"] in ("one_left", "iterations"), api["reason"]
    shown = page.locator("#sim-table tbody tr").first.get_attribute("data-play")
    assert shown == api["leader"], (shown, api["leader"])
    assert f"Best: {api['leader']}" in status
    rows = page.locator("#sim-table tbody tr")
    assert [rows.nth(k).get_attribute("data-play") for k in range(4)] == [c["play"] for c in api["candidates"]]
    for k, c in enumerate(api["candidates"]):  # the API's figures, to the tenth shown
        mean, half = rows.nth(k).locator(".sim-spread").inner_text().split(" ± ")
        assert abs(float(mean) - c["spread"]) <= 0.051 and abs(float(half) - 1.96 * c["spread_se"]) <= 0.051
    assert lines, "the page asked the API"
    SHOTS.mkdir(exist_ok=True)
    page.locator("#simulate").screenshot(path=str(SHOTS / "simulate-1280.png"))
    assert not page.watch.errors, page.watch.errors  # type: ignore[attr-defined]


def test_stop_stops_a_run(page: Page, server: str) -> None:  # noqa: F811
    open_page(page, server, QUERY)
    page.fill("#sim-seconds", "10")
    page.click("#sim-run")
    expect(page.locator("#sim-table tbody tr").first).to_be_visible(timeout=20_000)
    page.click("#sim-stop")
    expect(page.locator("#sim-stop")).to_be_hidden()
    expect(page.locator("#sim-run")).to_be_enabled()
    expect(page.locator("#sim-status")).to_contain_text("Stopped")
    assert page.locator("#simulate[data-done='true']").count() == 0


def test_an_error_is_shown_in_the_panel(page: Page, server: str) -> None:  # noqa: F811
    open_page(page, server, "?game=upwords&rack=AEINRST")
    page.click("#sim-run")
    expect(page.locator("#sim-error")).to_contain_text("no leave values")
    expect(page.locator("#sim-run")).to_be_enabled()


def test_the_panel_fits_a_phone(browser: Browser, server: str) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    try:
        open_page(pg, server, QUERY)
        pg.fill("#sim-candidates", "3")
        pg.fill("#sim-plies", "0")
        pg.click("#sim-run")
        expect(pg.locator("#simulate[data-done='true']")).to_be_attached(timeout=30_000)
        widths = pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], widths
        pg.locator("#simulate").screenshot(path=str(SHOTS / "simulate-390.png"))
    finally:
        context.close()
