"""How the site looks and answers besides the game itself: /schema offline, the 404 page, the rules pages,
move feedback and motion (and none under reduced motion), the theme and sound toggles, a quiet
connection indicator and no focus ring across the page."""

from __future__ import annotations

import pytest

import engine
from engine.intents import MoveIntent

from .board import Board
from .conftest import save_screenshot

pytestmark = pytest.mark.browser

# Counts what the page does that a test cannot see in a screenshot: shakes, gliding cards, sounds.
WATCH = """
  window.__seen = { shakes: 0, glides: 0, oscillators: 0 };
  document.addEventListener('animationstart', (e) => { if (e.animationName === 'shake') window.__seen.shakes++; });
  document.addEventListener('transitionrun', (e) => { if (e.propertyName === 'translate') window.__seen.glides++; });
  if (window.AudioContext) {
    const make = AudioContext.prototype.createOscillator;
    AudioContext.prototype.createOscillator = function () { window.__seen.oscillators++; return make.call(this); };
  }
"""


def seen(page) -> dict:
    return page.evaluate("({...window.__seen})")


def wait_shakes(page, moving: bool, count: int) -> None:
    """With motion, until the page has started its `count`th shake: a composited animation starts (and
    says so) once the compositor has taken it, which can be a few frames on a loaded machine. Without
    motion, two frames, and none may have started."""
    if moving:
        page.wait_for_function("(n) => window.__seen.shakes >= n", arg=count, timeout=5_000)
    else:
        settle(page)
    assert seen(page)["shakes"] == (count if moving else 0)


def settle(page) -> None:
    """Two animation frames: whatever a render starts has started by then."""
    page.evaluate("new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def wading_pool_seed() -> int:
    return next(s for s in range(1, 200)
                if any(isinstance(i, MoveIntent) for i in engine.legal_moves(engine.initial_state("wading-pool", None, s))))


def test_schema_works_offline(browser, arena):
    """Every request of /schema goes to the server itself: anything else is cut off, as without internet."""
    context = browser.new_context(base_url=arena.url)
    requests: list[str] = []
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(arena.url) else route.abort())
    try:
        page = context.new_page()
        page.on("request", lambda request: requests.append(request.url))
        page.goto("/schema")
        page.wait_for_selector(".swagger-ui .opblock-tag")  # the operations, grouped: the viewer ran
        assert "Patience Arena" in page.locator(".swagger-ui .title").inner_text()
        assert page.locator(".swagger-ui .opblock").count() > 20
        assert requests and all(url.startswith(arena.url) for url in requests), requests
    finally:
        context.close()


def test_an_unknown_page_is_friendly_and_the_api_keeps_json(page, console_errors):
    console_errors.allow("status of 404")  # the page's own answer, as it should be
    response = page.goto("/some/old/bookmark")
    assert response.status == 404 and response.headers["content-type"].startswith("text/html")
    assert "not in the deck" in page.locator("h1").inner_text()
    assert page.evaluate("getComputedStyle(document.querySelector('.panel')).borderRadius") == "12px", "styled"
    save_screenshot(page, "not-found")
    page.get_by_role("link", name="How to play each game").click()
    page.wait_for_selector(".rules-index li")
    for url, status in (("/api/no-such-thing", 404), ("/api/games/nosuchgame", 401)):
        answer = page.request.get(url)
        assert answer.status == status and set(answer.json()) == {"code", "message"}, url


def test_every_game_has_a_rules_page(page):
    games = page.request.get("/api/catalog").json()["games"]
    page.goto("/rules.html")
    page.wait_for_selector(".rules-index li")
    assert page.locator(".rules-index h2").all_inner_texts() == [game["title"] for game in games]
    for game in games:
        page.goto(f"/rules.html?game={game['id']}")
        page.wait_for_selector(".rules-text section")
        assert page.locator("h1").inner_text() == game["title"]
        assert page.locator(".rules-text #how-to-play").count() == 1
        assert page.locator(".rules-text .picture .card").count() >= 2, "small pictures of the cards"
        assert page.locator(".rules-text .picture[role=img][aria-label]").count() >= 1, "each picture is described"
    page.goto("/rules.html?game=wizard")
    powers = page.locator("#powers")
    powers.wait_for()
    assert "Cast" in powers.inner_text() and "Luck pick" in powers.inner_text()


def test_how_to_play_is_on_the_play_page(page):
    board = Board(page)
    board.new_game("wish", seed=3)
    panel = page.locator(".how-to-play")
    panel.locator("summary").click()
    panel.locator("[data-how-to-play] p").first.wait_for()
    assert "same rank" in panel.locator("[data-how-to-play]").inner_text()
    assert panel.locator(".picture .card").count() == 2
    panel.get_by_role("link", name="All the rules of The Wish").click()
    page.wait_for_url("**/rules.html?game=wish")
    page.wait_for_selector(".rules-text section")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_feedback_and_motion(browser, arena, motion):
    """A refused click or drop shakes the board and says why; a move glides. Under reduced motion the
    words stay and nothing moves."""
    context = browser.new_context(base_url=arena.url, viewport={"width": 1280, "height": 860}, reduced_motion=motion)
    context.add_init_script(WATCH)
    moving = motion == "no-preference"
    try:
        page = context.new_page()
        board = Board(page)
        board.new_game("wizard", seed=5)
        board.pile("waste").click()  # an empty waste: nothing to move from there
        message = page.locator(".move-message:not([hidden])")
        assert message.inner_text() == "No move from there."
        wait_shakes(page, moving, 1)
        # A move the server refuses (sent as a stale client would): the toast says why, the board shakes.
        page.evaluate("window.arena.link.sendMove({type: 'recycle'})")
        page.locator("#toast[data-kind=error]:not([hidden])").wait_for()
        wait_shakes(page, moving, 2)

        board.new_game("wading-pool", seed=wading_pool_seed())
        move = next(i for i in board.legal() if i["type"] == "move")
        wrong = next(p["id"] for p in board.view()["piles"] if p["id"] not in (move["src"], move["dst"]))
        board.source_card(move["src"], 1).drag_to(board.pile(wrong), target_position={"x": 12, "y": 12})
        assert message.inner_text().startswith("That cannot go on pile ")
        assert board.view()["moves"] == 0
        board.play(move)
        settle(page)
        if moving:  # the moved cards glide to their new place (said once the transition runs)
            page.wait_for_function("() => window.__seen.glides >= 1", timeout=5_000)
        else:
            assert seen(page)["glides"] == 0 and page.evaluate("document.getAnimations().length") == 0
    finally:
        context.close()


def test_theme_follows_the_system_and_the_toggle_is_remembered(browser, arena):
    for system, other in (("light", "dark"), ("dark", "light")):
        context = browser.new_context(base_url=arena.url, color_scheme=system)
        try:
            page = context.new_page()
            page.goto("/stats.html")
            toggle = page.locator("#theme-toggle")
            ink = "getComputedStyle(document.body).color"
            first = page.evaluate(ink)
            assert toggle.get_attribute("aria-pressed") == str(system == "light").lower()
            toggle.click()
            assert page.evaluate("document.documentElement.dataset.theme") == other
            assert page.evaluate(ink) != first
            assert toggle.get_attribute("aria-pressed") == str(other == "light").lower()
            page.goto("/rules.html")  # another page, the same choice
            assert page.evaluate("document.documentElement.dataset.theme") == other
            assert page.locator("#theme-toggle").get_attribute("aria-pressed") == str(other == "light").lower()
        finally:
            context.close()


def test_sound_is_off_until_turned_on(browser, arena):
    context = browser.new_context(base_url=arena.url)
    context.add_init_script(WATCH)
    try:
        page = context.new_page()
        board = Board(page)
        board.new_game("wizard", seed=5)
        toggle = page.locator("#sound-toggle")
        assert toggle.get_attribute("aria-pressed") == "false"
        board.play({"type": "deal"})
        assert seen(page)["oscillators"] == 0, "silent by default"
        toggle.click()
        assert toggle.get_attribute("aria-pressed") == "true"
        before = seen(page)["oscillators"]
        assert before > 0, "turning sound on plays a blip"
        board.play({"type": "deal"})
        assert seen(page)["oscillators"] > before
        page.reload()
        board.wait_ready(0)
        assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true", "remembered"
    finally:
        context.close()


def test_no_alarm_and_no_focus_band(page):
    """The start page holds no connection, so it shows none; the page's <main> takes the focus after a
    route change without drawing a ring across the page, even after keyboard use."""
    page.goto("/#/")
    page.wait_for_selector("#new-game")
    assert page.locator("#connection").is_hidden()
    page.keyboard.press("Tab")  # keyboard use: :focus-visible would now apply to scripted focus
    for url in ("/#/", "/stats.html", "/rules.html"):
        page.goto(url)
        page.wait_for_load_state("networkidle")
        page.keyboard.press("Shift")
        outline = page.evaluate("""() => { const main = document.querySelector('main'); main.focus();
          return getComputedStyle(main).outlineStyle; }""")
        assert outline == "none", url
    board = Board(page)
    board.new_game("wish", seed=3)
    assert page.locator("#connection").inner_text() == "Connected"
