"""The web page in a real browser: Debian's Chromium driven by Playwright, against the real app
(default lexicon) served by uvicorn on a free local port.

The tests skip only when Chromium or Playwright is missing *and* the CI variable is unset; in
CI they must run. ``WORDSOLVER_CHROMIUM`` names another Chromium binary. Screenshots go to
``.screenshots/`` (git-ignored); two of them are the pictures of the README and docs/page.md, in ``docs/``.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("WORDSOLVER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).resolve().parent.parent / ".screenshots"

try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None  # type: ignore[assignment]

if sync_playwright is None or not (shutil.which(CHROMIUM) or Path(CHROMIUM).exists()):
    why = "Playwright or Chromium (/usr/bin/chromium) is missing"
    if os.environ.get("CI"):
        raise RuntimeError(f"{why}; in CI the browser tests must run (.ci/run installs chromium)")
    pytest.skip(why, allow_module_level=True)

MIDGAME = [
    ".......K.......", ".......U.......", "....G.WE.......", "....A.AH.......", "....R.V........",
    "....D.e........", "....A.R........", "..PINDER.......", "....T.R........", "....S.ST.......",
    ".......E.......", ".......P.......", ".......E.......", ".......F.......", ".STOUTLY.......",
]


# ----------------------------------------------------------------------------- fixtures


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    import uvicorn

    from app.main import create_app
    from app.settings import Settings

    port = free_port()
    config = uvicorn.Config(create_app(Settings()), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the app did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Watch:
    """Console errors, page errors and failed or refused requests seen by a page."""

    def __init__(self, page: Page, base: str) -> None:
        self.errors: list[str] = []
        self.failed: list[str] = []
        self.outside: list[str] = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} {r.failure}"))
        page.on("response", lambda r: self.failed.append(f"{r.url} {r.status}") if r.status >= 400 else None)
        page.on("request", lambda r: self.outside.append(r.url) if not r.url.startswith((base, "data:", f"blob:{base}")) else None)


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    pg = context.new_page()
    pg.set_default_timeout(15_000)
    pg.watch = Watch(pg, server)  # type: ignore[attr-defined]
    yield pg
    context.close()


def open_page(page: Page, server: str, query: str = "") -> None:
    page.goto(f"{server}/{query}")
    expect(page.locator("body.ready")).to_be_attached()


def square(page: Page, row: int, col: int) -> Any:
    return page.locator(f"#board .sq .key[data-i='{(row - 1) * board_size(page) + col - 1}']")


def board_size(page: Page) -> int:
    return int(page.locator("#board").evaluate("el => getComputedStyle(el).getPropertyValue('--n')"))


def cell(page: Page, row: int, col: int) -> Any:
    return square(page, row, col).locator("xpath=..")


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def solve(page: Page, rack: str) -> None:
    page.fill("#rack", rack)
    page.press("#rack", "Enter")
    expect(page.locator("#results tbody tr").first).to_be_visible()


def grouped(moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The plays the results table shows as rows: one per word and squares, the best blank choice."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for m in moves:
        key = (m["row"], m["col"], m["direction"], m["word"].upper())
        if key in seen and m["word"] != m["word"].upper():
            continue
        seen.add(key)
        out.append(m)
    return out


def post(server: str, path: str, body: dict[str, Any]) -> Any:
    import httpx

    r = httpx.post(f"{server}{path}", json=body, timeout=30)
    assert r.status_code == 200, r.text
    return r.json()


# ----------------------------------------------------------------------------- scenarios


def test_loads_without_errors_or_outside_requests(page: Page, server: str) -> None:
    open_page(page, server)
    expect(page.locator("#unseen li")).to_have_count(27)
    page.wait_for_load_state("networkidle")
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.errors == [] and watch.failed == [] and watch.outside == []
    # the board is drawn from the API's ruleset: premiums coloured and labelled, start marked
    expect(cell(page, 1, 1)).to_have_class(re.compile(r"\bp-TL\b"))
    expect(cell(page, 1, 1).locator(".lbl")).to_have_text("TL")
    expect(cell(page, 8, 8)).to_have_class(re.compile(r"\bstart\b"))
    expect(square(page, 8, 6)).to_have_attribute("aria-label", "row 8, column F, double letter, empty")
    expect(square(page, 8, 8)).to_have_attribute("aria-label", "row 8, column H, start square, empty")
    shot(page, "empty-1280")


def test_quixote_opening_and_breakdown(page: Page, server: str) -> None:
    open_page(page, server)
    solve(page, "QUIXOTE")
    first = page.locator("#results tbody tr").first
    expect(first.locator("button.pick")).to_have_text("8F QUIXOTE")
    expect(first.locator(".score")).to_have_text("110")
    first.click()
    bd = page.locator("#breakdown")
    expect(bd.locator("caption")).to_have_text("QUIXOTE")
    expect(bd.locator("tbody tr")).to_have_count(7)
    expect(bd.locator("tbody tr").first).to_contain_text("Double letter")
    # item 9: the star square named as Crossplay's scoring page names it
    expect(bd.locator("tbody tr").nth(2)).to_contain_text("8HCenter star, no bonus")
    expect(bd.locator("tbody tr").first.locator("td").last).to_have_text("20")
    expect(bd.locator("tr.letter-total td")).to_have_text("35")
    expect(bd.locator("tr.mult td")).to_have_text("×2")
    expect(bd.locator("tr.word-score td")).to_have_text("70")
    expect(bd.locator(".bonus dt")).to_contain_text("Sweep")
    expect(bd.locator(".bonus dd")).to_have_text("40")
    expect(bd.locator(".total dd")).to_have_text("110")
    # the selected play is previewed on the board
    expect(cell(page, 8, 6)).to_have_class(re.compile(r"\bpreview\b"))
    shot(page, "quixote-1280")
    page.uncheck("#premiums")
    page.press("#rack", "Enter")
    expect(page.locator("#results tbody tr").first.locator(".score")).to_have_text("64")


def test_board_typed_with_keyboard_solved_previewed_and_played(page: Page, server: str) -> None:
    open_page(page, server)
    square(page, 8, 6).click()
    page.keyboard.type("HOUSE")
    expect(square(page, 8, 11)).to_be_focused()
    square(page, 9, 8).click()
    page.keyboard.press("Space")  # switch to down
    expect(page.locator("#dir")).to_have_attribute("aria-pressed", "true")
    page.keyboard.type("NI")
    page.keyboard.press("Shift+T")  # a blank standing for T
    expect(square(page, 12, 8)).to_be_focused()
    page.keyboard.type("X")  # lands on 12H, cursor on to 13H
    page.keyboard.press("Backspace")  # steps back to 12H and clears it
    expect(square(page, 12, 8)).to_be_focused()
    page.keyboard.press("ArrowUp")
    expect(square(page, 11, 8)).to_be_focused()
    expect(cell(page, 11, 8)).to_have_class(re.compile(r"\bblank\b"))
    expect(square(page, 11, 8)).to_have_attribute("aria-label", "row 11, column H, blank as T")
    expect(cell(page, 12, 8).locator(".ltr")).to_have_text("")
    board = ["." * 15] * 15
    board[7] = ".....HOUSE....."
    board[8] = ".......N......."
    board[9] = ".......I......."
    board[10] = ".......t......."
    page.locator("details.board-text summary").click()
    expect(page.locator("#board-text")).to_have_value("\n".join(board))

    rack = "AEINRS?"
    solve(page, rack)
    expected = grouped(post(server, "/v1/games/crossplay/moves", {"board": board, "rack": rack, "limit": 20})["moves"])
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(len(expected))
    third = expected[2]
    rows.nth(2).hover()
    for t in third["tiles"]:
        c = cell(page, t["row"], t["col"])
        expect(c).to_have_class(re.compile(r"\bpreview\b"))
        expect(c.locator(".ltr")).to_have_text(t["letter"].upper())
        if t["blank"]:
            expect(c).to_have_class(re.compile(r"\bblank\b"))
    rows.nth(2).locator("button.pick").click()
    page.click("#play-it")
    expect(page.locator("#rack")).to_have_value(third["leave"])
    for t in third["tiles"]:
        c = cell(page, t["row"], t["col"])
        expect(c).not_to_have_class(re.compile(r"\bpreview\b"))
        expect(c.locator(".ltr")).to_have_text(t["letter"].upper())
    after = [list(r) for r in board]
    for t in third["tiles"]:
        after[t["row"] - 1][t["col"] - 1] = t["letter"]
    expect(page.locator("#board-text")).to_have_value("\n".join("".join(r) for r in after))


def test_errors_are_shown_by_their_field(page: Page, server: str) -> None:
    open_page(page, server)
    page.fill("#rack", "QUIXOTES")
    page.press("#rack", "Enter")
    expect(page.locator("#rack-error")).to_have_text("rack 'QUIXOTES' has 8 tiles; crossplay racks hold 7")
    # a play that clashes with a tile on the board: the API names the square, the page marks it;
    # the board comes in by Ctrl+V on the board
    page.evaluate("text => navigator.clipboard.writeText(text)", "\n".join(MIDGAME))
    square(page, 1, 1).click()
    page.keyboard.press("Control+V")
    expect(cell(page, 15, 2).locator(".ltr")).to_have_text("S")
    page.fill("#rack", "")
    page.fill("#c-row", "3")
    page.select_option("#c-col", "7")
    page.select_option("#c-dir", "down")
    page.fill("#c-word", "WAVERS")
    page.click("#c-submit")
    expect(page.locator("#check-error")).to_have_text("square 8G already holds E, not S")
    expect(cell(page, 8, 7)).to_have_class(re.compile(r"\berr\b"))
    expect(square(page, 8, 7)).to_have_attribute("aria-label", re.compile("has an error"))
    shot(page, "error-1280")


def test_board_warnings_and_better_plays(page: Page, server: str) -> None:
    stray = list(MIDGAME)
    stray[13] = "A......F......."
    open_page(page, server, "?game=crossplay&board=" + "-".join(stray) + "&rack=AEINRS%3F")
    page.press("#rack", "Enter")
    expect(page.locator("#results tbody tr").first).to_be_visible()
    expect(page.locator("#board-warnings li")).to_have_text(["1 tile(s) not connected to the rest of the board, from 14A"])
    expect(cell(page, 14, 1)).to_have_class(re.compile(r"\bwarn\b"))
    expect(square(page, 14, 1)).to_have_attribute("aria-label", re.compile("flagged by a warning"))
    # Check my play lists the better plays the API names
    page.fill("#c-row", "1")
    page.select_option("#c-col", "8")
    page.fill("#c-word", "KAISERs")
    page.click("#c-submit")
    out = post(server, "/v1/games/crossplay/score",
               {"board": stray, "rack": "AEINRS?", "move": {"row": 1, "col": 8, "direction": "across", "word": "KAISERs"}})
    expect(page.locator("#check-result .left")).to_have_text(f"You left {out['points_missed']} points on the table.")
    expect(page.locator("#check-result .better")).to_contain_text(out["better_plays"][0]["notation"].split(" ")[0])


def test_upwords_heights_example(page: Page, server: str) -> None:
    open_page(page, server)
    page.select_option("#game", "upwords")
    expect(page.locator("body[data-game='upwords']")).to_be_attached()
    expect(page.locator("#board .brow")).to_have_count(10)
    page.locator("details.board-text summary").click()
    rows = ["." * 10] * 10
    rows[4] = "....CAT..."
    heights = ["0" * 10] * 10
    heights[4] = "0000121000"
    page.fill("#board-text", "\n".join(rows))
    page.fill("#heights-text", "\n".join(heights))
    page.click("#paste-board")
    expect(cell(page, 5, 6).locator(".h")).to_have_text("2")
    # heights that disagree with the board: the API's message, its square marked
    page.fill("#heights-text", "\n".join(["0" * 10] * 4 + ["0000021000"] + ["0" * 10] * 5))
    page.click("#paste-board")
    expect(page.locator("#text-error")).to_contain_text("row 5, column 5: height 0 but letter C on the board")
    expect(cell(page, 5, 5)).to_have_class(re.compile(r"\berr\b"))
    page.fill("#heights-text", "\n".join(heights))
    page.click("#paste-board")
    expect(page.locator("#text-error")).to_be_hidden()
    expect(square(page, 5, 6)).to_have_attribute("aria-label", re.compile("stack 2, tile A"))
    # a stack height set from the keyboard: digits on a square
    square(page, 5, 7).click()
    page.keyboard.press("3")
    expect(cell(page, 5, 7).locator(".h")).to_have_text("3")
    page.keyboard.press("1")
    solve(page, "QUIZEAS")
    first = page.locator("#results tbody tr").first
    expect(first.locator("button.pick")).to_have_text("6F SAIQUE")
    expect(first.locator(".score")).to_have_text("19")
    first.click()
    expect(page.locator("#breakdown .total dd")).to_have_text("19")
    expect(page.locator("#breakdown .bonus dt")).to_contain_text("All seven tiles")
    # unseen tiles: 100 - 4 in stacks - 7 on the rack; one buried under the A; no blanks in Upwords
    expect(page.locator("#unseen-summary")).to_contain_text("89 tiles unseen")
    expect(page.locator("#unseen-summary")).to_contain_text("1 buried under stacks")
    expect(page.locator("#unseen li")).to_have_count(26)
    expect(page.locator("#unseen li[data-letter='Q']")).to_have_attribute("aria-label", "Qu: 0")
    shot(page, "upwords-1280")


def test_check_my_play(page: Page, server: str) -> None:
    open_page(page, server)
    page.fill("#c-row", "8")
    page.select_option("#c-col", "7")
    page.fill("#c-word", "QXZ")
    page.click("#c-submit")
    expect(page.locator("#check-result .invalid-words")).to_have_text("QXZ")
    expect(page.locator("#check-result .check-score")).to_have_text("28")

    page.fill("#rack", "QUIXOTE")
    page.select_option("#c-col", "4")
    page.fill("#c-word", "QUIXOTE")
    page.click("#c-submit")
    out = post(server, "/v1/games/crossplay/score",
               {"rack": "QUIXOTE", "move": {"row": 8, "col": 4, "direction": "across", "word": "QUIXOTE"}})
    expect(page.locator("#check-result .check-score")).to_have_text("92")
    expect(page.locator("#check-result .check-rank")).to_have_text(str(out["rank"]))
    expect(page.locator("#check-result .check-best")).to_have_text("110")
    expect(page.locator("#check-result .left")).to_have_text("You left 18 points on the table.")
    expect(page.locator("#check-result .ok")).to_be_visible()


def test_compare_and_unseen(page: Page, server: str) -> None:
    open_page(page, server)
    solve(page, "QUIXOTE")
    page.locator("#results tbody tr").first.locator("button.pick").click()
    page.click("#compare-btn")
    scores = page.locator("#compare tbody td.score")
    expect(scores).to_have_text(["110", "98", "83"])
    expect(page.locator("#compare tbody th")).to_have_text(["NYT Crossplay", "Scrabble", "Words With Friends"])
    # unseen: Crossplay's 100 tiles minus the rack QUIXOTE
    import httpx

    counts = httpx.get(f"{server}/v1/games/crossplay").json()["tile_counts"]
    unseen = page.locator("#unseen")
    expect(unseen.locator("li[data-letter='Q']")).to_have_attribute("aria-label", "Q: 0")
    expect(unseen.locator("li[data-letter='E']")).to_have_attribute("aria-label", f"E: {counts['E'] - 1}")
    expect(unseen.locator("li[data-letter='?']")).to_have_attribute("aria-label", "blank: 3")
    expect(page.locator("#unseen-summary")).to_contain_text("93 tiles unseen")
    vowels = sum(counts[v] for v in "AEIOU") - 4  # U, I, O, E on the rack
    expect(page.locator("#unseen-summary")).to_contain_text(f"{vowels} vowels")


def test_reload_and_shared_link_restore_the_position(page: Page, server: str, browser: Browser) -> None:
    open_page(page, server)
    page.select_option("#game", "scrabble")
    expect(page.locator("body[data-game='scrabble']")).to_be_attached()
    square(page, 8, 8).click()
    page.keyboard.type("CAT")
    page.keyboard.press("Shift+S")
    page.fill("#rack", "ZE?")
    page.locator("#rack").dispatch_event("input")
    page.reload()
    expect(page.locator("body.ready")).to_be_attached()
    expect(page.locator("#game")).to_have_value("scrabble")
    expect(page.locator("#rack")).to_have_value("ZE?")
    expect(cell(page, 8, 10).locator(".ltr")).to_have_text("T")
    expect(cell(page, 8, 11)).to_have_class(re.compile(r"\bblank\b"))
    url = page.url
    assert "game=scrabble" in url
    # the board copied out as the API's row strings, and the link
    page.locator("details.board-text summary").click()
    page.click("#copy-board")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.splitlines()[7] == ".......CATs...." and len(copied.splitlines()) == 15
    page.click("#share")
    assert page.evaluate("navigator.clipboard.readText()") == url
    other = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        fresh = other.new_page()
        fresh.goto(url)
        expect(fresh.locator("body.ready")).to_be_attached()
        expect(fresh.locator("#game")).to_have_value("scrabble")
        expect(fresh.locator("#rack")).to_have_value("ZE?")
        fresh.locator("details.board-text summary").click()
        expect(fresh.locator("#board-text")).to_have_value(re.compile(r"^\.{7}CATs\.{4}$", re.M))
    finally:
        other.close()


def test_phone_width_and_keyboard_only(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        open_page(page, server)
        solve(page, "QUIXOTE")
        page.locator("#results tbody tr").first.locator("button.pick").click()
        expect(page.locator("#breakdown .total dd")).to_have_text("110")
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], widths
        expect(page.locator("#announce")).to_have_text("20 plays. Best: 8F QUIXOTE, 110 points.")
        expect(page.locator("#unseen-summary")).to_contain_text("93 tiles unseen")
        shot(page, "quixote-390")
        # a phone's on-screen keyboard sends text input rather than key presses
        square(page, 3, 3).tap()
        page.keyboard.insert_text("z")
        expect(cell(page, 3, 3).locator(".ltr")).to_have_text("Z")
        expect(square(page, 3, 4)).to_be_focused()
        page.keyboard.press("Backspace")
        expect(cell(page, 3, 3).locator(".ltr")).to_have_text("")
    finally:
        context.close()
    for width in (360, 390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800})
        page = context.new_page()
        try:
            open_page(page, server)
            widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], (width, widths)
            # keyboard only: Tab to the rack, type, Enter, Tab to the first play, Enter, breakdown
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.id") == "rack":
                    break
            assert page.evaluate("document.activeElement.id") == "rack"
            page.keyboard.type("QUIXOTE")
            page.keyboard.press("Enter")
            expect(page.locator("#results tbody tr").first).to_be_visible()
            for _ in range(40):
                page.keyboard.press("Tab")
                if page.evaluate("document.activeElement.classList.contains('pick')"):
                    break
            assert page.evaluate("document.activeElement.dataset.rank") == "1"
            page.keyboard.press("ArrowDown")
            assert page.evaluate("document.activeElement.dataset.rank") == "2"
            page.keyboard.press("Enter")
            expect(page.locator("#selected-title")).to_have_text("H6 QUIXOTE: 110 points")
            expect(page.locator("#breakdown .total dd")).to_have_text("110")
            # focus is visible: the focused control has an outline
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("none", ""), outline
        finally:
            context.close()


def test_filters_and_count(page: Page, server: str) -> None:
    """docs/api.md's filtered example: contains K, no blanks, count -> 1D REINKS 33 of 127."""
    open_page(page, server, "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F")
    page.click("#filters-box summary")  # the filters fold away until asked for
    page.fill("#f-contains", "K")
    page.check("#f-noblanks")
    page.check("#count")
    page.press("#rack", "Enter")
    first = page.locator("#results tbody tr").first
    expect(first.locator("button.pick")).to_have_text("1D REINKS")
    expect(first.locator(".score")).to_have_text("33")
    expect(page.locator("#total")).to_have_text("(127 in all)")
    # a square filter, chosen on the board
    page.fill("#f-contains", "")
    page.uncheck("#f-noblanks")
    square(page, 9, 6).click()
    page.click("#f-square-set")
    expect(page.locator("#f-square")).to_have_text("9F")
    expect(cell(page, 9, 6)).to_have_class(re.compile(r"\bfsq\b"))
    page.press("#rack", "Enter")
    want = post(server, "/v1/games/crossplay/moves",
                {"board": MIDGAME, "rack": "AEINRS?", "count": True, "filters": {"square": [9, 6]}})
    expect(page.locator("#total")).to_have_text(f"({want['total_moves']} in all)")
    expect(page.locator("#results tbody button.pick")).to_have_count(len(grouped(want["moves"])))
    shown = page.locator("#results tbody button.pick").evaluate_all("els => els.map(e => e.dataset.notation)")
    assert shown == [m["notation"] for m in grouped(want["moves"])]
    assert all(any(t["row"] == 9 and t["col"] == 6 for t in m["tiles"]) for m in want["moves"])


def test_rank_by_equity_shows_leave_value_and_equity(page: Page, server: str) -> None:
    """Issue 11: with "Rank by equity" the plays come in the API's equity order with two more columns."""
    open_page(page, server, "?game=scrabble&rack=AEQSTUU")
    expect(page.locator("#results .eq-col").first).to_be_hidden()
    page.check("#equity")
    page.press("#rack", "Enter")
    want = post(server, "/v1/games/scrabble/moves", {"rack": "AEQSTUU", "rank_by": "equity"})
    first = page.locator("#results tbody tr").first
    expect(first.locator("button.pick")).to_have_text(want["moves"][0]["notation"])
    expect(first.locator("td").nth(5)).to_have_text(f"+{want['moves'][0]['leave_value']}")
    expect(first.locator("td").nth(6)).to_have_text(str(want["moves"][0]["equity"]))
    expect(page.locator("#results .eq-col").first).to_be_visible()
    page.uncheck("#equity")
    page.press("#rack", "Enter")
    expect(page.locator("#results .eq-col").first).to_be_hidden()
    expect(page.locator("#results tbody tr").first.locator("td")).to_have_count(5)


DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_readme_screenshots(browser: Browser, server: str) -> None:
    """The README's and docs/page.md's two pictures, as a player sees the screen (not the whole
    page): at 1280x800 a mid-game Crossplay position solved with the second play selected, its
    breakdown beside the list; at 390x844 the same after Solve and a choice, the list under the
    pinned board with the choice previewed. Written to .screenshots/, and to docs/page-1280.png
    and docs/page-390.png when WORDSOLVER_SCREENSHOTS=docs (`make screenshots`)."""
    query = "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F"
    to_docs = os.environ.get("WORDSOLVER_SCREENSHOTS") == "docs"
    for width, height in ((1280, 800), (390, 844)):
        phone = width < 760
        context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1, has_touch=phone)
        page = context.new_page()
        try:
            open_page(page, server, query)
            page.press("#rack", "Enter")
            expect(page.locator("#results tbody tr").first).to_be_visible()
            pick = page.locator("#results tbody tr").nth(1).locator("button.pick")
            pick.tap() if phone else pick.click()
            expect(page.locator("#breakdown .total dd")).to_be_visible()
            if phone:  # back from the breakdown to the list, the choice on the pinned board
                page.locator("#back-to-plays").tap()
                page.evaluate("document.activeElement.blur()")
                page.evaluate("window.scrollBy(0, -60)")
            page.wait_for_timeout(150)
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"page-{width}.png"))
            if to_docs:
                page.screenshot(path=str(DOCS / f"page-{width}.png"))
        finally:
            context.close()


def test_midgame_screenshots(browser: Browser, server: str) -> None:
    """Whole-page pictures of a mid-game position solved, a play selected and compared, at 1280 and 390 px."""
    query = "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F"
    for width, height in ((1280, 1000), (390, 844)):
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        try:
            open_page(page, server, query)
            page.press("#rack", "Enter")
            want = post(server, "/v1/games/crossplay/moves", {"board": MIDGAME, "rack": "AEINRS?"})["moves"]
            expect(page.locator("#results tbody tr")).to_have_count(len(grouped(want)))
            page.locator("#results tbody tr").first.locator("button.pick").click()
            page.click("#compare-btn")
            expect(page.locator("#compare tbody td.score")).to_have_count(3)
            expect(page.locator("#unseen li")).to_have_count(27)
            widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], (width, widths)
            page.locator("#rack").blur()
            page.evaluate("window.scrollTo(0, 0)")
            shot(page, f"midgame-{width}")
            SHOTS.mkdir(exist_ok=True)
            page.screenshot(path=str(SHOTS / f"midgame-{width}-top.png"))
        finally:
            context.close()


# ----------------------------------------------------------------------------- whole games and CGP

# Hand-made: bob's OX is re-scored 18 (recorded 36), 48th of 246 plays, 17 points below 9A OXY.
GCG = """#player1 ann Ann
#player2 bob Bob
>ann: AEINRST 8B ANESTRI +66 66
>bob: DGOOXYZ 9A OX +36 36
>ann: ?EHLLOW D1 WELLHOl. +84 150
>bob: BCEIKTU 3C B.UETICK +90 128
"""
CGP_MID = "15/15/15/15/15/15/15/3RETAINS5/15/15/15/15/15/15/15 DGOOXYZ/ABC 0/66 0 lex NWL23;"


def analyze(page: Page, record: str, game: str = "scrabble") -> None:
    page.fill("#gcg", record)
    page.select_option("#a-game", game)
    page.click("#a-submit")


def test_analyze_a_game(page: Page, server: str) -> None:
    open_page(page, server)
    analyze(page, GCG)
    rows = page.locator("#a-turns tbody tr")
    expect(rows).to_have_count(4)
    cells = rows.nth(1).locator("td")
    texts = cells.evaluate_all("els => els.map(e => e.textContent)")
    assert texts == ["2", "bob", "DGOOXYZ", "9A OX", "36", "18 ≠", "yes", "48 of 246", "9A OXY 35", "17", "27% −5.0 medium"], texts  # win figures from the Scrabble table relearned with the per-sub-rack leaves (10,000 games)
    assert rows.nth(0).locator("td").evaluate_all("els => els.map(e => e.textContent)") == [
        "1", "ann", "AEINRST", "8B ANESTRI", "66", "66", "yes", "1 of 2974", "8B ANESTRI 66", "0", "69%"]
    expect(rows.nth(1)).to_have_class(re.compile(r"\bdiffers\b"))
    # item 7: the whole word, the letters already on the board marked (the record says "D1 WELLHOl.")
    expect(rows.nth(2).locator("button.pick")).to_have_text("D1 WELLHOLE")
    expect(rows.nth(2).locator("button.pick")).to_have_attribute("data-play", "D1 WELLHOl.")
    assert rows.nth(2).locator("button.pick .word span").evaluate_all(
        "els => els.map(e => [e.textContent, e.className])") == [["L", "bl"], ["E", "on"]]
    expect(rows.nth(3).locator("button.pick")).to_have_text("3C BLUETICK")
    expect(rows.nth(3).locator("button.pick .word .on")).to_have_text("L")
    expect(page.locator("#a-agree")).to_have_text(
        "✗ The recorded scores differ first at line 4 (turn 2, bob): recorded 36, re-scored 18.")
    totals = page.locator(".a-players tbody tr")
    assert totals.nth(1).locator("th, td").evaluate_all("els => els.map(e => e.textContent)") == ["bob", "128", "108", "17"]
    expect(page.locator(".a-notes")).to_contain_text("no end-of-game lines")
    # a turn shows the position before it: the API's board rows, its tiles as new, its rack
    page.locator("#a-turns button.pick[data-turn='2']").click()
    expect(page.locator("#game")).to_have_value("scrabble")
    expect(cell(page, 8, 2).locator(".ltr")).to_have_text("A")
    expect(cell(page, 9, 1)).to_have_class(re.compile(r"\bpreview\b"))
    expect(cell(page, 9, 2).locator(".ltr")).to_have_text("X")
    expect(page.locator("#rack")).to_have_value("DGOOXYZ")
    expect(page.locator("#board-note-text")).to_contain_text("Before turn 2 (bob, rack DGOOXYZ): 9A OX")
    expect(page.locator("#a-turns button.pick[data-turn='2']")).to_have_attribute("aria-pressed", "true")
    # keyboard: arrows move through the turns, Enter shows one, "Back" returns to it
    page.locator("#a-turns button.pick[data-turn='2']").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator("#board-note-text")).to_contain_text("Before turn 3 (ann, rack EHLLOW?): D1 WELLHOLE, its tiles")
    expect(cell(page, 9, 1).locator(".ltr")).to_have_text("O")
    expect(page.locator("#unseen-summary")).to_contain_text("84 tiles unseen")  # 9 on the board, 7 on the rack
    page.click("#board-note-back")
    expect(page.locator("#a-turns button.pick[data-turn='3']")).to_be_focused()
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.errors == [] and watch.failed == [], (watch.errors, watch.failed)
    shot(page, "analyze-1280")


def test_analyze_a_file_and_a_malformed_record(page: Page, server: str, tmp_path: Path) -> None:
    open_page(page, server)
    path = tmp_path / "game.gcg"
    path.write_bytes(GCG.replace("ann", "ren\xe9").encode("iso-8859-1"))
    page.set_input_files("#gcg-file", str(path))
    expect(page.locator("#gcg")).to_have_value(GCG.replace("ann", "ren\xe9"))
    page.select_option("#a-game", "scrabble")
    page.click("#a-submit")
    expect(page.locator("#a-turns tbody tr")).to_have_count(4)
    expect(page.locator("#a-turns tbody tr").first.locator("td").nth(1)).to_have_text("ren\xe9")
    analyze(page, "#player1 a A\n>a: XYZ 8D +1 1\n")
    err = page.locator("#gcg-error")
    expect(err).to_have_text("line 2: 'XYZ' is not a position (8D across, D8 down): '>a: XYZ 8D +1 1'")
    assert page.locator("#gcg").evaluate("el => el.getAttribute('aria-describedby')").split() == ["gcg-help", "gcg-error"]
    page.fill("#gcg", "")
    page.click("#a-submit")
    expect(err).to_contain_text("Paste a game record")


def test_cgp_in_and_out(page: Page, server: str) -> None:
    open_page(page, server, "?game=scrabble")
    page.click(".cgp-box summary")
    page.fill("#cgp-text", CGP_MID)
    page.click("#cgp-load")
    expect(cell(page, 8, 4).locator(".ltr")).to_have_text("R")
    expect(cell(page, 8, 10).locator(".ltr")).to_have_text("S")
    expect(page.locator("#rack")).to_have_value("DGOOXYZ")
    expect(page.locator("#cgp-info")).to_contain_text("scores 0–66")
    expect(page.locator("#cgp-info")).to_contain_text("lex NWL23 (not on this server")
    page.press("#rack", "Enter")
    first = page.locator("#results tbody tr").first
    expect(first.locator("button.pick")).to_have_text("7G ZOO")
    expect(first.locator(".score")).to_have_text("49")
    # unchanged: copied back whole; changed: written by the API from the board and rack
    page.fill("#cgp-text", "")
    page.click("#cgp-copy")
    expect(page.locator("#cgp-text")).to_have_value(CGP_MID)
    assert page.evaluate("navigator.clipboard.readText()") == CGP_MID
    page.fill("#rack", "ZO?")
    page.click("#cgp-copy")
    expect(page.locator("#cgp-text")).to_have_value("15/15/15/15/15/15/15/3RETAINS5/15/15/15/15/15/15/15 OZ?/ 0/0 0 lex word-list;")
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.errors == [], watch.errors
    # the API's error, next to the field, naming the character
    page.fill("#cgp-text", CGP_MID.replace("DGOOXYZ", "DGO1XYZ"))
    page.press("#cgp-text", "Enter")
    expect(page.locator("#cgp-error")).to_have_text(
        "cgp racks, character 56: unexpected character '1' in rack 'DGO1XYZ' (letters, '?' a blank)")
    expect(cell(page, 8, 4).locator(".ltr")).to_have_text("R")


def test_analysis_and_cgp_at_phone_width(browser: Browser, server: str) -> None:
    for width in (360, 390):
        context = browser.new_context(viewport={"width": width, "height": 844})
        page = context.new_page()
        try:
            open_page(page, server)
            page.click(".cgp-box summary")
            page.fill("#cgp-text", CGP_MID)
            page.click("#a-submit")  # empty: the panel's own message
            analyze(page, GCG)
            expect(page.locator("#a-turns tbody tr")).to_have_count(4)
            page.locator("#a-turns button.pick[data-turn='4']").click()
            expect(page.locator("#board-note")).to_be_visible()
            expect(page.locator("#board-note")).to_be_in_viewport()  # not hidden under the pinned board
            note, board = rect(page, "#board-note"), rect(page, "#board")
            assert board["top"] >= 0 and note["top"] >= board["bottom"] - 1 and note["bottom"] <= 844, (board, note)
            widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert widths[0] <= widths[1], (width, widths)
            shot(page, f"analyze-{width}")
            page.locator(".analyze-area").screenshot(path=str(SHOTS / f"analyze-panel-{width}.png"))
        finally:
            context.close()


# ----------------------------------------------------------------------------- accessibility audit

A11Y = Path(__file__).resolve().parent / "a11y"


@pytest.fixture(scope="module")
def axe_js(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """axe-core (npm, pinned in tests/a11y/package-lock.json), installed for the test only."""
    import subprocess

    if not shutil.which("npm"):
        if os.environ.get("CI"):
            pytest.fail("npm is required in CI (.ci/run installs it)")
        pytest.skip("npm is not installed")
    work = tmp_path_factory.mktemp("a11y")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(A11Y / name, work / name)
    done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=work,
                          capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    return work / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Page, axe: Path) -> list[str]:
    page.add_script_tag(path=str(axe))
    result = page.evaluate(
        "axe.run(document, {runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']})"
    )
    return [f"{v['id']}: {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in result["violations"]]


def test_axe_finds_no_accessibility_violations(browser: Browser, server: str, axe_js: Path) -> None:
    """axe-core's WCAG 2.1 A/AA and best-practice rules on the page in its busiest states: a
    solved Crossplay position with a play selected, compared and checked at 1280 px; Upwords
    with stacks, solved, at 390 px (each audit takes several seconds, so two of them)."""
    # bypass_csp: the page's policy would (rightly) refuse the injected audit script
    context = browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True)
    page = context.new_page()
    try:
        open_page(page, server, "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F")
        page.press("#rack", "Enter")
        page.locator("#results tbody tr").first.locator("button.pick").click()
        page.click("#compare-btn")
        expect(page.locator("#compare tbody td.score")).to_have_count(3)
        page.fill("#c-row", "1")
        page.select_option("#c-col", "8")
        page.fill("#c-word", "KAISERs")
        page.click("#c-submit")
        expect(page.locator("#check-result .better")).to_be_visible()
        page.click(".cgp-box summary")
        page.fill("#cgp-text", CGP_MID.replace("DGOOXYZ", "DGO1XYZ"))
        page.click("#cgp-load")
        expect(page.locator("#cgp-error")).to_be_visible()
        analyze(page, GCG, "crossplay")
        expect(page.locator("#a-turns tbody tr")).to_have_count(4)
        # issue 22's additions: a blank-choice group opened, the shortcuts and own-list boxes open,
        # the filters unfolded, the record's game explained
        page.locator("#results tbody button.more").first.click()
        expect(page.locator("#results tbody tr.variant").first).to_be_visible()
        page.click("#shortcuts summary")
        page.click("#own-list-link")
        page.click("#filters-box summary")
        expect(page.locator("#a-game-why")).to_be_visible()
        assert axe_violations(page, axe_js) == []
        # exchanges and the pass as rows (Scrabble, ranked by equity)
        page.select_option("#game", "scrabble")
        page.click("#clear-board")
        page.fill("#rack", "UUUVVWQ")
        page.check("#equity")
        page.press("#rack", "Enter")
        expect(page.locator("#results tbody tr.swap").first).to_be_visible()
        page.locator("#results tbody tr").first.locator("button.pick").click()
        assert axe_violations(page, axe_js) == []
    finally:
        context.close()
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    page = context.new_page()
    try:
        open_page(page, server, "?game=upwords&board=" + "-".join(["." * 10] * 4 + ["....CAT..."] + ["." * 10] * 5)
                  + "&heights=" + "-".join(["0" * 10] * 4 + ["0000121000"] + ["0" * 10] * 5) + "&rack=QUIZEAS")
        page.press("#rack", "Enter")
        page.locator("#results tbody tr").first.locator("button.pick").click()
        expect(page.locator("#breakdown .total dd")).to_have_text("19")
        assert axe_violations(page, axe_js) == []
    finally:
        context.close()


# ----------------------------------------------------------------------------- API docs offline


def test_docs_and_redoc_render_offline(page: Page, server: str) -> None:
    page.goto(f"{server}/docs")
    expect(page.locator(".opblock").first).to_be_visible()
    expect(page.locator(".opblock-summary-path", has_text="/v1/games/scrabble/moves")).to_be_visible()  # one per game
    expect(page.locator(".opblock-summary-path", has_text="/v1/games/crossplay/unseen")).to_be_visible()
    page.goto(f"{server}/redoc")
    expect(page.locator(".api-content h2", has_text="The best plays for a board and rack").first).to_be_visible()
    expect(page.locator("img[alt='redocly logo']")).to_be_attached()
    page.wait_for_load_state("networkidle")
    watch = page.watch  # type: ignore[attr-defined]
    # ReDoc's logo address is replaced by an inline image: no request to its CDN, nothing blocked,
    # no console error
    assert watch.outside == [] and watch.failed == [] and watch.errors == [], (watch.outside, watch.failed, watch.errors)


# ----------------------------------------------------------------------------- issue 22, correct by default

GCG_DIR = Path(__file__).resolve().parent / "gcg"


def test_record_game_taken_from_the_record(page: Page, server: str) -> None:
    """Item 1: a Woogles-style record (tests/gcg/woogles_style.gcg: Woogles' header lines,
    #lexicon NWL20, turns of a Scrabble game) is graded as Scrabble with the page on Crossplay and
    the analysis game left at "From the record"; without its #lexicon line the game is found by
    its scores (Scrabble's match), and a Words With Friends record with no pragmas is found the same way."""
    open_page(page, server)
    expect(page.locator("#a-game")).to_have_value("auto")
    woogles = (GCG_DIR / "woogles_style.gcg").read_text(encoding="utf-8")
    page.fill("#gcg", woogles)
    page.click("#a-submit")
    why = page.locator("#a-game-why")
    expect(why).to_contain_text("Graded as Scrabble (from the record's #lexicon NWL20, a Scrabble word list), word list word-list.")
    expect(why).to_contain_text("The record names the word list NWL20; this server has no such list")
    expect(page.locator("#a-agree")).to_have_text("✓ The recorded cumulative scores agree with the re-scored ones.")
    totals = page.locator(".a-players tbody tr")
    assert totals.nth(0).locator("th, td").evaluate_all("els => els.map(e => e.textContent)")[:3] == ["vera", "247", "247"]
    expect(page.locator("#game")).to_have_value("crossplay")  # the board's game is left alone until a turn is shown
    page.fill("#gcg", "\n".join(line for line in woogles.splitlines() if not line.startswith("#lexicon")))
    page.click("#a-submit")
    expect(why).to_contain_text("Graded as Scrabble (the record names no game; its scores match it as Scrabble)")
    expect(page.locator("#a-agree")).to_contain_text("✓")
    page.fill("#gcg", (GCG_DIR / "wwf_no_pragmas.gcg").read_text(encoding="utf-8"))
    page.click("#a-submit")
    expect(why).to_contain_text("Graded as Words With Friends (the record names no game; its scores match it as "
                                "Words With Friends, not as Scrabble or NYT Crossplay)")
    expect(page.locator("#a-agree")).to_contain_text("✓")
    # an explicit choice is obeyed, and the difference named
    page.select_option("#a-game", "crossplay")
    page.click("#a-submit")
    expect(why).to_have_text("Graded as NYT Crossplay, word list word-list.")
    expect(page.locator("#a-agree")).to_contain_text("✗ The recorded scores differ first at line 3")
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.errors == [], watch.errors


def test_exchanges_ranked_with_equity_and_the_word_list_named(page: Page, server: str) -> None:
    """Item 3: Scrabble, CAT at 8H, rack UUUVVWQ, ranked by equity: exchanging all but QU comes
    first (the per-sub-rack measured leaves value QU at +1.838), as the API with exchanges: true ranks it; item 2: the word list named by the results."""
    board = ["." * 15] * 15
    board[7] = ".......CAT....."
    open_page(page, server, "?game=scrabble&board=" + "-".join(board) + "&rack=UUUVVWQ")
    page.check("#equity")
    page.press("#rack", "Enter")
    want = post(server, "/v1/games/scrabble/moves", {"board": board, "rack": "UUUVVWQ", "rank_by": "equity", "exchanges": True})
    candidates = sorted([(m["rank"], m["notation"], m["equity"]) for m in want["moves"]]
                        + [(x["rank"], "Pass" if x["kind"] == "pass" else f"Exchange {x['thrown']}", x["equity"]) for x in want["exchanges"]])
    assert candidates[0][1:] == ("Exchange UUVVW", 1.838)
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(len(candidates))
    shown = page.locator("#results tbody button.pick").evaluate_all("els => els.map(e => e.dataset.notation)")
    assert shown == [c[1] for c in candidates]
    expect(rows.first.locator("td")).to_have_count(7)
    assert rows.first.locator("td").evaluate_all("els => els.map(e => e.textContent)") == [
        "1", "Exchange UUVVW", "0", "–", "QU", "+1.838", "1.838"]
    rows.first.click()
    expect(page.locator("#selected-title")).to_have_text("Exchange UUVVW: equity 1.838")
    expect(page.locator("#compare-btn")).to_be_hidden()
    note = page.locator("#lexicon-note")
    expect(note).to_contain_text("Words checked against word-list: a broad English list")
    expect(note).to_contain_text("not any game's official dictionary")
    page.click("#own-list-link")
    expect(page.locator("#own-list-box")).to_have_attribute("open", "")
    expect(page.locator("#own-list-box")).to_contain_text("WORDSOLVER_LEXICON_DIR")
    page.click("#play-it")
    expect(page.locator("#rack")).to_have_value("QU")  # the tiles the exchange keeps


def test_options_that_do_not_apply_are_hidden(page: Page, server: str) -> None:
    """Item 8: "Rank by equity" is not offered for Upwords (no leave values), and is for the others."""
    open_page(page, server, "?game=upwords")
    expect(page.locator("#equity-field")).to_be_hidden()
    expect(page.locator("#group-field")).to_be_hidden()  # no blanks in Upwords
    expect(page.locator("#premiums-field")).to_be_hidden()  # no premium squares
    expect(page.locator("#plural-field")).to_be_visible()
    page.select_option("#game", "scrabble")
    expect(page.locator("#equity-field")).to_be_visible()
    expect(page.locator("#group-field")).to_be_visible()
    expect(page.locator("#plural-field")).to_be_hidden()


# ----------------------------------------------------------------------------- issue 22, layout for the task


def rect(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return {"top": box["y"], "bottom": box["y"] + box["height"], "left": box["x"], "right": box["x"] + box["width"],
            "width": box["width"], "height": box["height"]}


def test_laptop_board_and_results_side_by_side(browser: Browser, server: str) -> None:
    """Items 4-5 at 1280x800: the board, the plays and the selected play's breakdown in one view,
    without scrolling; Compare's table is brought into view."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_page(page, server, "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F")
        page.press("#rack", "Enter")
        page.locator("#results tbody tr").first.locator("button.pick").click()
        expect(page.locator("#breakdown .total dd")).to_have_text("82")
        assert page.evaluate("window.scrollY") == 0
        board, plays, total = rect(page, "#board"), rect(page, "#results"), rect(page, "#breakdown .total")
        assert board["right"] <= plays["left"] and plays["right"] <= rect(page, "#selected")["left"], (board, plays)
        assert board["bottom"] <= 800 and plays["top"] < 800 and 0 <= total["top"] and total["bottom"] <= 800, (board, plays, total)
        page.click("#compare-btn")
        expect(page.locator("#compare tbody td.score")).to_have_count(3)
        cmp = rect(page, "#compare")
        assert 0 <= cmp["top"] and cmp["bottom"] <= 800, cmp
        assert board["bottom"] <= 800 and rect(page, "#board")["top"] >= 0  # the board did not move away
    finally:
        context.close()


def test_phone_flow_keeps_the_board_in_view(browser: Browser, server: str) -> None:
    """Items 4 and 6 at 390x844: Solve brings the plays into view under the pinned board; choosing
    a play previews it on the board still in view; tap targets of 40 px; squares not tiny; the
    analysis totals fit the screen even with a long player name."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    try:
        open_page(page, server, "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F")
        assert rect(page, "#board .sq")["width"] >= 24
        for sel in ("#solve", "#dir", "#clear-board", "#undo", "#equity-field", "#group-field", "#rack"):
            assert rect(page, sel)["height"] >= 40, sel
        page.locator("#rack").tap()
        page.press("#rack", "Enter")
        expect(page.locator("#results tbody tr").first).to_be_visible()
        page.wait_for_timeout(200)
        board, first = rect(page, "#board"), rect(page, "#results tbody tr")
        assert board["top"] >= 0 and board["bottom"] <= first["top"] + 1 and first["bottom"] <= 844, (board, first)
        assert rect(page, "#results tbody button.pick")["height"] >= 40
        third = page.locator("#results tbody tr").nth(2)
        third.locator("button.pick").tap()
        expect(page.locator("#board .sq.preview").first).to_be_attached()
        board = rect(page, "#board")
        assert board["top"] >= 0 and board["bottom"] <= 844, board
        sel = rect(page, "#selected")
        assert sel["top"] >= board["bottom"] - 1 and sel["top"] < 844, (board, sel)
        assert rect(page, "#play-it")["height"] >= 40
        page.locator("#back-to-plays").tap()
        expect(page.locator("#results tbody tr.sel")).to_be_in_viewport()
        # the analysis totals table fits a phone, even with a long name
        record = GCG.replace("ann", "annabellewolfeschlegelsteinhausenbergerdorff")
        page.fill("#gcg", record)
        page.select_option("#a-game", "scrabble")
        page.click("#a-submit")
        expect(page.locator("#a-turns tbody tr")).to_have_count(4)
        totals = rect(page, ".a-players")
        assert totals["left"] >= 0 and totals["right"] <= 390, totals
        widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], widths
    finally:
        context.close()


# ----------------------------------------------------------------------------- issue 22, many plays


def test_a_thousand_plays_draw_fast_and_blank_choices_group(page: Page, server: str) -> None:
    """Item 10: 1,000 rows drawn in well under 300 ms in the page (the draw is timed in the page
    itself; the whole solve, request included, is printed); blank choices of one word and
    position are one row, the others behind its +N button."""
    open_page(page, server, "?game=crossplay&board=" + "-".join(MIDGAME) + "&rack=AEINRS%3F")
    page.fill("#limit", "1000")
    page.uncheck("#group")
    page.press("#rack", "Enter")
    expect(page.locator("#results tbody tr")).to_have_count(1000)
    draw, whole = (float(page.evaluate(f"document.body.dataset.{k}")) for k in ("drawMs", "solveMs"))
    print(f"1,000 rows: drawn in {draw} ms; the whole solve (request, answer, rows) {whole} ms; load {os.getloadavg()}")
    assert draw < 300, draw
    want = post(server, "/v1/games/crossplay/moves", {"board": MIDGAME, "rack": "AEINRS?", "limit": 1000, "breakdowns": False})["moves"]
    last = page.locator("#results tbody tr").nth(999)
    expect(last.locator("button.pick")).to_have_attribute("data-notation", want[999]["notation"])
    last.locator("button.pick").click()  # a long list comes without breakdowns: the selected play's is fetched
    expect(page.locator("#breakdown .total dd")).to_have_text(str(want[999]["score"]))
    # grouped: one row per word and squares, the best blank choice shown
    page.fill("#limit", "20")
    page.check("#group")
    page.press("#rack", "Enter")
    want = post(server, "/v1/games/crossplay/moves", {"board": MIDGAME, "rack": "AEINRS?", "limit": 20})["moves"]
    rows = page.locator("#results tbody tr")
    expect(rows).to_have_count(len(grouped(want)))
    lead = next(m for m in grouped(want) if sum(g["notation"].upper() == m["notation"].upper() for g in want) > 1)
    others = [m for m in want if m["notation"].upper() == lead["notation"].upper() and m is not lead]
    row = page.locator("#results tbody tr", has=page.locator(f"button.pick[data-notation='{lead['notation']}']"))
    more = row.locator("button.more")
    expect(more).to_have_text(f"+{len(others)}")
    more.click()
    expect(page.locator("#results tbody button.more[aria-expanded='true']")).to_have_count(1)
    variants = page.locator("#results tbody tr.variant button.pick")
    assert variants.evaluate_all("els => els.map(e => e.dataset.notation)") == [m["notation"] for m in others]
    expect(rows).to_have_count(len(grouped(want)) + len(others))
    variants.first.click()
    expect(page.locator("#breakdown .total dd")).to_have_text(str(others[0]["score"]))


# ----------------------------------------------------------------------------- issue 22, undo and redo


def test_undo_and_redo_board_edits_and_play_it(page: Page, server: str) -> None:
    """Board edits and "Play it" undo (Ctrl+Z, or the Undo button) and redo (Ctrl+Shift+Z,
    Ctrl+Y, or Redo), the rack with them; the shortcuts are listed in a help box."""
    open_page(page, server, "?game=scrabble")
    expect(page.locator("#undo")).to_be_disabled()
    square(page, 8, 8).click()
    page.keyboard.type("CAT")
    expect(cell(page, 8, 10).locator(".ltr")).to_have_text("T")
    page.keyboard.press("Control+z")
    expect(cell(page, 8, 10).locator(".ltr")).to_have_text("")
    expect(cell(page, 8, 9).locator(".ltr")).to_have_text("A")
    page.click("#undo")
    page.click("#undo")
    expect(cell(page, 8, 8).locator(".ltr")).to_have_text("")
    expect(page.locator("#undo")).to_be_disabled()
    page.click("#redo")
    expect(cell(page, 8, 8).locator(".ltr")).to_have_text("C")
    square(page, 8, 8).focus()
    page.keyboard.press("Control+y")
    page.keyboard.press("Control+Shift+z")
    expect(cell(page, 8, 10).locator(".ltr")).to_have_text("T")
    expect(page.locator("#redo")).to_be_disabled()
    # Play it, then undo: the board and the rack as they were; redo plays it again
    page.fill("#rack", "SHOE")
    page.press("#rack", "Enter")
    first = page.locator("#results tbody tr").first
    expect(first).to_be_visible()
    tiles = post(server, "/v1/games/scrabble/moves", {"board": ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7,
                                                      "rack": "SHOE", "limit": 1})["moves"][0]
    first.locator("button.pick").click()
    page.click("#play-it")
    t = tiles["tiles"][0]
    expect(cell(page, t["row"], t["col"]).locator(".ltr")).to_have_text(t["letter"].upper())
    expect(page.locator("#rack")).to_have_value(tiles["leave"])
    page.click("#undo")
    expect(cell(page, t["row"], t["col"]).locator(".ltr")).to_have_text("")
    expect(page.locator("#rack")).to_have_value("SHOE")
    page.click("#redo")
    expect(cell(page, t["row"], t["col"]).locator(".ltr")).to_have_text(t["letter"].upper())
    expect(page.locator("#rack")).to_have_value(tiles["leave"])
    # the help box lists the shortcuts
    page.click("#shortcuts summary")
    keys = page.locator("#shortcuts")
    for text in ("Ctrl+Z", "Ctrl+Shift+Z", "Ctrl+Y", "Space", "Enter"):
        expect(keys).to_contain_text(text)
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.errors == [], watch.errors


def test_other_modules_see_the_position_and_the_selected_play(page: Page, server: str) -> None:
    """The hooks for simulate.js / endgame.js: `current()` exported by main.js, and the
    page:selected event carrying the same object."""
    open_page(page, server, "?game=scrabble&rack=QUIXOTE")
    page.evaluate("""() => { window.seen = []; document.addEventListener('page:selected', (e) => window.seen.push(e.detail)); }""")
    page.press("#rack", "Enter")
    page.locator("#results tbody tr").first.locator("button.pick").click()
    seen = page.evaluate("window.seen")
    assert len(seen) == 1 and seen[0]["game"] == "scrabble" and seen[0]["rack"] == "QUIXOTE" and seen[0]["board"] is None
    assert seen[0]["move"]["notation"] == "8H QUIXOTE" or seen[0]["move"]["notation"].endswith("QUIXOTE")
    assert seen[0]["lexiconName"] == "word-list" and seen[0]["heights"] is None
    now = page.evaluate("import('/static/js/main.js').then((m) => m.current())")
    assert now == seen[0]
    expect(page.locator("#selected-actions #play-it")).to_be_visible()
    expect(page.locator("#extra-panels")).to_be_attached()


def test_analysis_marks_a_blown_endgame(page: Page, server: str) -> None:
    from engine import default_lexicon
    from engine.game import game_rules
    from engine.gcg import write_gcg
    from engine.strategy.players import GreedyPlayer
    from engine.strategy.selfplay import play_game

    # a greedy self-play Crossplay game whose final round blows 6 points (tests/test_analyze_endgame.py)
    record = write_gcg(play_game(game_rules("crossplay"), default_lexicon(), [GreedyPlayer(), GreedyPlayer()], 3))
    open_page(page, server)
    analyze(page, record, "crossplay")
    expect(page.locator("#a-turns tbody tr")).to_have_count(19)
    marks = page.locator("#a-turns .endgame")
    expect(marks).to_have_count(2)
    expect(marks.nth(0)).to_have_text(" endgame −6")
    expect(marks.nth(0)).to_have_attribute("title", re.compile(r"^Blown endgame: 6 points lost against the solver's best, \S+ .*\(\+\d+\)$"))
    expect(marks.nth(1)).to_have_text(" endgame ✓")
    watch = page.watch  # type: ignore[attr-defined]
    assert watch.errors == [] and watch.failed == [], (watch.errors, watch.failed)
