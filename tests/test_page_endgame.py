"""The page's Endgame panel (app/static/js/endgame.js) in a real browser: it shows itself when the
bag is empty (or holds one tile), its answer is the API's for the same request, and stepping
through the principal variation shows each move on the board. The fixtures (the live app,
Chromium) are tests/test_page.py's; the positions are the API's own examples (a Scrabble endgame
and a Crossplay final round, both from seeded self-play games as the bag empties)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from test_page import MIDGAME, SHOTS, browser, cell, open_page, page, post, server  # noqa: F401

from app.routers.endgame import ENDGAME_BOARD, FINAL_ROUND_BOARD

CASES = {  # board, rack, scores (the side to move's first)
    "scrabble": (ENDGAME_BOARD, "AEGIIO?", [450, 434]),
    "crossplay": (FINAL_ROUND_BOARD, "DOORRTY", [442, 490]),
}
# A depth cap the search finishes at once: the answer is then the same in the page and the API
# whatever the load of the machine (a clock-bound search is not).
DEPTH = 3


def query(game: str) -> str:
    board, rack, _ = CASES[game]
    return f"?game={game}&board={'-'.join(board)}&rack={rack.replace('?', '%3F')}"


def solve_in_page(pg: Page, game: str) -> dict[str, Any]:
    open_page(pg, pg.server, query(game))  # type: ignore[attr-defined]
    expect(pg.locator("#endgame")).to_be_visible()
    expect(pg.locator("#endgame")).to_have_attribute("data-mode", "endgame")
    pg.fill("#eg-budget", "30")
    pg.fill("#eg-depth", str(DEPTH))
    board, rack, scores = CASES[game]
    pg.fill("#eg-score-you", str(scores[0]))
    pg.fill("#eg-score-opp", str(scores[1]))
    expect(pg.locator("#eg-final-turns")).to_be_visible(visible=game == "crossplay")
    pg.click("#eg-run")
    expect(pg.locator("#endgame[data-done='true']")).to_be_attached(timeout=60_000)
    return post(pg.server, f"/v1/games/{game}/endgame",  # type: ignore[attr-defined]
                {"board": board, "rack": rack, "scores": scores, "budget": 30, "max_depth": DEPTH})


@pytest.mark.parametrize("game", ["scrabble", "crossplay"])
def test_an_endgame_in_the_page_is_the_apis(page: Page, server: str, game: str) -> None:  # noqa: F811
    page.server = server  # type: ignore[attr-defined]
    api = solve_in_page(page, game)
    # proved (Crossplay's final round is two turns deep) or stopped by the depth cap: either way
    # the same in the page and the API whatever the machine's load
    assert api["proved"] or api["depth"] == DEPTH, (api["proved"], api["depth"])
    print(game, api["value"], api["proved"], api["depth"], [s["notation"] for s in api["pv"]])
    status = page.locator("#eg-status").inner_text()
    sign = "+" if api["value"] > 0 else ""
    assert f"Value {sign}{api['value']} " in status, (status, api["value"])
    assert ("not proved" in status) == (not api["proved"]), status
    assert f"depth {api['depth']}" in status
    if api["final_scores"]:  # the API gives them when the variation reaches the end of the game
        assert "final {}–{}".format(*api["final_scores"]) in status, (status, api["final_scores"])
    else:
        assert "final" not in status, status
    assert api["final_scores"] or not api["proved"], "a proved answer with scores has final scores"
    items = page.locator("#eg-pv li")
    shown = [items.nth(k).get_attribute("data-notation") for k in range(items.count())]
    assert shown == [s["notation"] for s in api["pv"]], (shown, api["pv"])
    assert shown
    # the start: the board as typed, nothing previewed
    expect(page.locator("#board .sq.preview")).to_have_count(0)
    expect(page.locator("#eg-prev")).to_be_disabled()
    placed: dict[tuple[int, int], str] = {}
    for k, step in enumerate(api["pv"]):
        page.click("#eg-next")
        expect(page.locator("#endgame")).to_have_attribute("data-step", str(k))
        expect(items.nth(k)).to_have_class(re.compile(r"\bnow\b"))
        for t in step["tiles"]:
            placed[(t["row"], t["col"])] = t["letter"]
        # every tile of the moves so far is on the board; the ones of this move are marked
        expect(page.locator("#board .sq.preview")).to_have_count(len(placed))
        expect(page.locator("#board .sq.eg-now")).to_have_count(len(step["tiles"]))
        for t in step["tiles"]:
            sq = cell(page, t["row"], t["col"])
            expect(sq).to_have_class(re.compile(r"\beg-now\b"))
            assert sq.locator(".ltr").inner_text().upper() == t["letter"].upper()
        if k == 0:
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"endgame-{game}-1280.png"), full_page=True)
    expect(page.locator("#eg-next")).to_be_disabled()
    page.click("#eg-prev")
    expect(page.locator("#endgame")).to_have_attribute("data-step", str(len(api["pv"]) - 2))
    if len(api["pv"]) == 1:
        expect(page.locator("#board .sq.preview")).to_have_count(0)
    page.locator("#eg-pv li").first.click()
    expect(page.locator("#endgame")).to_have_attribute("data-step", "0")
    assert not page.watch.errors, page.watch.errors  # type: ignore[attr-defined]


def test_no_panel_while_the_bag_holds_tiles(page: Page, server: str) -> None:  # noqa: F811
    open_page(page, server, "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRST")
    page.wait_for_timeout(800)  # the panel's own unseen request has answered
    expect(page.locator("#endgame")).to_be_hidden()


def test_one_tile_in_the_bag_offers_the_pre_endgame(page: Page, server: str) -> None:  # noqa: F811
    board = CASES["scrabble"][0]
    # four tiles of the rack back among the unseen: 8 of them, a rack and one in the bag
    open_page(page, server, f"?game=scrabble&board={'-'.join(board)}&rack=AEG")
    expect(page.locator("#endgame")).to_have_attribute("data-mode", "preendgame")
    expect(page.locator("#eg-title")).to_have_text("Pre-endgame")
    page.fill("#eg-budget", "2")
    page.click("#eg-run")
    expect(page.locator("#endgame[data-done='true']")).to_be_attached(timeout=60_000)
    rows = page.locator("#eg-table tbody tr")
    assert rows.count() >= 1
    # the values are clock-bound (the budget is shared out among the draws), so the order may
    # differ from a second run; the candidates weighed (the 20 best by score and the pass) do not
    api = post(server, "/v1/games/scrabble/preendgame", {"board": board, "rack": "AEG", "budget": 2, "limit": 200})
    assert rows.count() == min(10, len(api["candidates"]))
    everyone = {c["notation"]: c["score"] for c in api["candidates"]}
    for k in range(rows.count()):
        play = rows.nth(k).get_attribute("data-notation")
        assert play in everyone, play
        assert rows.nth(k).locator("td").nth(1).inner_text() == str(everyone[play])
    page.locator("#endgame").screenshot(path=str(SHOTS / "preendgame-1280.png"))


def test_the_panel_fits_a_phone(browser: Browser, server: str) -> None:  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844})
    pg = context.new_page()
    pg.server = server  # type: ignore[attr-defined]
    try:
        solve_in_page(pg, "scrabble")
        pg.click("#eg-next")
        widths = pg.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], widths
        pg.screenshot(path=str(SHOTS / "endgame-390.png"), full_page=True)
        pg.locator("#endgame").screenshot(path=str(SHOTS / "endgame-panel-390.png"))
    finally:
        context.close()
