"""The analysis panel's review figures (issue 22) in a real browser: the graph of each player's
win % over the game (one point per turn, the API's `win.after`), and the win % and mistake size
next to each turn; at laptop and phone widths. The fixtures are tests/test_page.py's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect
from test_page import SHOTS, analyze, browser, open_page, page, post, server, shot  # noqa: F401

from engine import default_lexicon
from engine.game import game_rules
from engine.gcg import write_gcg
from engine.strategy.players import GreedyPlayer, RandomPlayer
from engine.strategy.selfplay import play_game


def record() -> str:  # greedy against random play: mistakes of every size
    return write_gcg(play_game(game_rules("scrabble"), default_lexicon(), [GreedyPlayer(), RandomPlayer(4)], 4))


def check_review(pg: Page, base: str) -> None:
    gcg = record()
    want = post(base, "/v1/games/scrabble/analyze", {"gcg": gcg, "best": 3})["turns"]
    open_page(pg, base)
    analyze(pg, gcg)
    expect(pg.locator("#a-turns tbody tr")).to_have_count(len(want))
    graph = pg.locator("#a-win-graph")
    expect(graph).to_be_visible()
    for p in (0, 1):
        pts = graph.locator(f"polyline[data-player='{p}']").get_attribute("points") or ""
        assert len(pts.split()) == len(want), (p, pts)
        ys = [float(xy.split(",")[1]) for xy in pts.split()]
        # 170 high, 8 above and 20 below the plot: y = 8 + (1 - P) * 142
        got = [1 - (y - 8) / 142 for y in ys]  # y has one decimal: P to within 0.05 / 142
        assert got == pytest.approx([t["win"]["after"] if t["player"] == p else 1 - t["win"]["after"] for t in want],
                                    abs=0.0004)
    cells = pg.locator("#a-turns tbody td.win").evaluate_all("els => els.map(e => e.textContent)")
    assert cells == [f"{round(100 * t['win']['after'])}%" + (f" −{100 * t['win']['lost']:.1f}" if f"{100 * (t['win']['lost'] or 0):.1f}" != "0.0" else "")
                     + (f" {t['win']['mistake']}" if t["win"]["mistake"] else "") for t in want]
    assert any(t["win"]["mistake"] for t in want)
    expect(graph.locator("circle.win-mistake")).to_have_count(sum(1 for t in want if t["win"]["mistake"]))
    watch = pg.watch  # type: ignore[attr-defined]
    assert watch.errors == [] and watch.failed == [], (watch.errors, watch.failed)


def test_win_graph_and_mistakes(page: Page, server: str) -> None:  # noqa: F811
    page.set_viewport_size({"width": 1280, "height": 900})
    check_review(page, server)
    page.locator("#a-win-graph").scroll_into_view_if_needed()
    shot(page, "review-1280")
    page.locator("#a-result").screenshot(path=str(SHOTS / "review-1280-panel.png"))


def test_win_graph_at_phone_width(page: Page, server: str) -> None:  # noqa: F811
    page.set_viewport_size({"width": 390, "height": 844})
    check_review(page, server)
    box = page.locator("#a-win-graph").bounding_box()
    assert box is not None and box["width"] <= 390 and box["height"] > 80
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.locator("#a-win-graph").scroll_into_view_if_needed()
    shot(page, "review-390")
    page.locator("#a-result").screenshot(path=str(SHOTS / "review-390-panel.png"))
