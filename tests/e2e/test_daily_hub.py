"""The daily hub through the browser, on an `arena serve` of its own with the daily scheduler on (only the
Wish, for speed) and a clock file the test sets: sign up on the eve (an account is ranked on the days that
open after it was made), play the Wish to a win, see it marked "checking" until the server, restarted with
a replay validator, verifies it, see the rank on the leaderboard, find practice closed until the reveal,
read the statistics, then cross into the next day, see yesterday's seed revealed and practise the deal.
A second player, also made on the eve, wins the same deal an hour later and is ranked second, a page of the
board further on.
The test knows the deal's seed only from the server's own Redis (the game log's creation entry)."""

from __future__ import annotations

import datetime as dt
import re
from urllib.parse import quote

import httpx
import msgspec
import pytest

import engine
from engine.solver import solve

from .board import Board
from .conftest import watched_page
from .daily import (
    account_form, challenge_of, daily_server, form_error, get_json, screenshots, seed_from_log, stored_identity,
    submit_account, unique_name, wait_for,
)

pytestmark = pytest.mark.browser

DAY = dt.date(2033, 3, 14)
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
KEY = f"{DAY.isoformat()}/wish/mode=standard"
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def daily_arena(tmp_path_factory, chromium_path):
    # No validator in the server at first: a win stays "checking" until the test restarts it with one.
    with daily_server(tmp_path_factory, "daily", OPENS - 2 * HOUR, validators=0) as running:
        yield running


@pytest.fixture
def daily_page(browser, daily_arena, console_errors):
    with watched_page(browser, daily_arena[0].url, console_errors, 1280, 800) as page:
        yield page


def test_sign_up_win_the_daily_see_the_rank_and_yesterdays_seed(daily_page, daily_arena, console_errors):
    server, clock = daily_arena
    page = daily_page
    console_errors.allow(r"Failed to load resource: .*status of 400")  # the refused name, shown in the form
    # The eve (22:00): both players sign up before the day opens.
    wait_for(lambda: challenge_of(get_json(server.url, f"/api/dailies/{DAY.isoformat()}"), KEY), "the Wish prepared")
    page.goto("/")
    page.locator(".guest-note").wait_for(state="visible")  # the hub renders once the day's answer is in
    guest = stored_identity(page)["player_id"]
    dialog = account_form(page, "sign-up")
    submit_account(dialog, "x", PASSWORD)
    assert form_error(page, dialog, "bad_name").startswith("Sign up failed: A name is 3 to 20 letters")
    name = unique_name("ann")
    submit_account(dialog, name, PASSWORD)
    page.wait_for_selector("#account[data-account=named]")
    assert page.locator("#account .who").inner_text() == f"Signed in as {name}"
    assert stored_identity(page)["player_id"] == guest, "the guest became the account"
    page.locator(".guest-note").wait_for(state="detached")
    second = unique_name("cat")
    httpx.post(f"{server.url}/api/accounts", json={"name": second, "password": PASSWORD}, timeout=10).raise_for_status()

    clock.set(OPENS + 10 * HOUR)  # 10:00 of the day
    info = wait_for(lambda: challenge_of(get_json(server.url, "/api/dailies")["today"], KEY), "today's Wish")
    # The scheduler prepares the week ahead a day at a time after today: the page is loaded once it has.
    wait_for(lambda: len(get_json(server.url, "/api/dailies")["upcoming"]) == 7, "the week ahead prepared")
    page.goto("/")
    card = page.locator(f'[data-day=today] .daily-card[data-challenge="{KEY}"]')
    card.wait_for()
    assert card.locator("h3").inner_text() == next(g.title for g in engine.catalog().games if g.id == "wish")
    assert card.locator(".preset").inner_text() == "Standard (3 face down)"
    assert card.locator("[data-commitment]").get_attribute("data-commitment") == info["commitment"]
    # Counted on the server's clock (10:00 of its day), not the browser's own date: 14 hours or a little less.
    assert re.fullmatch(r"1[34]:\d\d:\d\d", card.locator(".countdown").inner_text())
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    card.get_by_role("button", name="Copy the commitment").click()
    assert page.evaluate("navigator.clipboard.readText()") == info["commitment"]
    upcoming = get_json(server.url, "/api/dailies")["upcoming"]
    page.locator("details.upcoming summary").click()
    ahead = page.locator("details.upcoming li")
    assert ahead.count() == len(upcoming) == 7
    assert ahead.first.get_attribute("data-challenge") == upcoming[0]["challenge"]
    assert ahead.first.locator("code").get_attribute("title") == upcoming[0]["commitment"]

    # Today's Wish, won through the board with the solver's line for the seed the server stored.
    card.locator("[data-daily=play]").click()
    page.wait_for_url("**/#/play/*")
    board = Board(page)
    board.wait_ready(0)
    board.wait_online()
    attempt = page.evaluate("window.arena.state.gameId")
    seed = seed_from_log(server.embedded_redis_url(), attempt)
    line = [msgspec.to_builtins(i) for i in solve(engine.initial_state("wish", {"mode": "standard"}, seed)).line]
    board.play_line(line)
    assert "You won" in board.end_dialog().inner_text()
    page.get_by_role("button", name="Start page").click()

    # No validator yet: the win is shown as being checked, on the hub and on the leaderboard.
    mine = card.locator(".daily-mine .text")
    page.wait_for_selector(f'.daily-card[data-challenge="{KEY}"] .daily-mine[data-mine=pending]')
    assert mine.inner_text() == f"Won in {len(line)} moves, 0:00 · checking"
    card.get_by_role("link", name="Leaderboard").click()
    page.wait_for_url("**/leaderboard.html?challenge=*")
    page.wait_for_selector(".standing[data-mine=pending]")
    assert page.locator("tbody.pending tr.mine td.rank").inner_text() == "checking"
    assert page.locator("[data-count=pending] strong").inner_text() == "1"
    # The server again, now with a replay validator: it checks the win and the page, looking again, ranks it.
    board_url = page.url
    page.goto("about:blank")  # no page asks while the server is away
    server.stop()
    server.env["ARENA_VALIDATORS"] = "1"
    server.start()
    page.goto(board_url)
    page.wait_for_selector('.standing[data-mine=verified][data-rank="1"]', timeout=60_000)
    row = page.locator("table.leaderboard tbody:not(.pending) tr.mine")
    assert row.locator("td.rank").inner_text() == "1" and name in row.inner_text()
    assert page.locator("tbody.pending").count() == 0
    screenshots(page, "leaderboard")

    page.goto("/")
    page.wait_for_selector(f'.daily-card[data-challenge="{KEY}"] .daily-mine[data-mine=verified]')
    assert mine.inner_text() == f"Won in {len(line)} moves, 0:00 · rank 1 of 1 win"
    screenshots(page, "daily-hub")

    # My attempt is over, but no practice on the deal before the reveal: others are still playing it.
    assert card.locator("[data-daily=practice]").count() == 0
    assert card.locator(".practice-later").inner_text() == "Practice opens at the reveal"

    # My statistics: the daily win counts.
    page.get_by_role("link", name="Statistics").click()
    page.wait_for_url("**/stats.html")
    stats = page.locator('table.stats tr[data-game=wish][data-variant="mode=standard"]')
    stats.wait_for()
    assert stats.locator("td[data-label=Won]").inner_text() == "1"
    assert stats.locator("th").inner_text().startswith("The Wish")
    screenshots(page, "stats")

    # An hour later a second player wins the same deal: ranked second. The board, a page of one at a time.
    clock.set(OPENS + 11 * HOUR)
    page.goto("/")
    page.click("#account [data-account-open=sign-out]")
    page.wait_for_selector("#account[data-account=guest]")
    dialog = account_form(page, "sign-up")
    dialog.locator("[data-account-switch]").click()  # the account made on the eve: sign in
    submit_account(dialog, second, PASSWORD)
    page.wait_for_selector("#account[data-account=named]")
    card.locator("[data-daily=play]").click()
    page.wait_for_url("**/#/play/*")
    board.wait_ready(0)
    board.wait_online()
    assert page.evaluate("window.arena.state.gameId") != attempt
    # The leaderboard in a second tab meanwhile: my attempt in play, so it looks again soon (a win just
    # made reaches the board a moment after its last move), not at the slow poll's 30 s.
    aside = page.context.new_page()
    aside.goto(f"/leaderboard.html?challenge={quote(KEY)}")
    aside.wait_for_selector(".standing[data-mine=playing]")
    with aside.expect_request(lambda request: "/api/dailies/" in request.url and "/leaderboard" in request.url,
                              timeout=10_000):
        pass
    aside.close()
    board.play_line(line)  # one deal for everyone
    assert "You won" in board.end_dialog().inner_text()
    page.goto(f"/leaderboard.html?challenge={quote(KEY)}&limit=1")
    page.wait_for_selector('.standing[data-mine=verified][data-rank="2"]', timeout=60_000)
    assert page.locator("table.leaderboard caption").inner_text() == "Verified wins 1–1 of 2"
    first = page.locator("table.leaderboard tbody tr")
    assert first.locator("td.rank").inner_text() == "1"
    # The name itself (a win played at a script's speed may carry the review mark after it).
    assert first.locator("td[data-label=Player]").evaluate("td => td.firstChild.textContent.trim()") == name
    assert page.locator("tr.mine").count() == 0 and page.locator("a[rel=prev]").count() == 0
    page.click("a[rel=next]")
    page.wait_for_url("**/leaderboard.html?challenge=*&offset=1&limit=1")
    page.wait_for_selector("table.leaderboard tr.mine")
    assert page.locator("tr.mine td.rank").inner_text() == "2" and f"{second} (you)" in page.locator("tr.mine").inner_text()
    assert page.locator("a[rel=next]").count() == 0 and page.locator("a[rel=prev]").count() == 1

    # The next day at 02:00: the close and the hour of grace are over, the seed is revealed.
    clock.set(OPENS + 26 * HOUR)
    wait_for(lambda: challenge_of(get_json(server.url, f"/api/dailies/{DAY.isoformat()}"), KEY)["status"] == "final",
             "the reveal")
    page.goto("/")
    past = page.locator(f'[data-day=yesterday] .daily-card[data-challenge="{KEY}"]')
    past.wait_for()
    assert past.get_attribute("data-status") == "final"
    assert past.locator("[data-revealed=seed]").inner_text() == str(seed)
    assert past.locator(".daily-mine .text").inner_text().endswith("rank 2 of 2 wins")
    assert [line.split(" · ")[0].split()[-1] for line in past.locator(".podium li").all_inner_texts()] == [name, second]
    tomorrow = (DAY + dt.timedelta(days=1)).isoformat()
    assert page.locator(f'[data-day=today] .daily-card[data-challenge^="{tomorrow}/"]').count() == 1
    screenshots(page, "daily-hub-yesterday")

    # Revealed: practice on the deal; a second practice asks first, naming the first one.
    past.locator("[data-daily=practice]").click()
    page.wait_for_url("**/#/play/*")
    board.wait_ready(0)
    practice = page.evaluate("window.arena.state.gameId")
    assert practice not in (attempt, None)
    page.goto("/")
    past.locator("[data-daily=practice]").click()
    ask = page.locator("#abandon-dialog[open]")
    ask.wait_for()
    assert ask.get_attribute("data-game-id") == practice
    assert "practice game of The Wish (Standard (3 face down), 0 moves" in ask.inner_text()
    ask.locator("[data-abandon=cancel]").click()
    assert page.evaluate("location.hash") in ("", "#/")


def test_sign_out_and_sign_in_again_with_the_servers_errors(daily_page, console_errors):
    page = daily_page
    console_errors.allow(r"Failed to load resource: .*status of (401|409)")  # the refusals shown in the form
    page.goto("/")
    name = unique_name("bea")
    submit_account(account_form(page, "sign-up"), name, PASSWORD)
    page.wait_for_selector("#account[data-account=named]")
    account = stored_identity(page)["player_id"]

    page.click("#account [data-account-open=sign-out]")
    page.wait_for_selector("#account[data-account=guest]")
    assert stored_identity(page)["player_id"] != account, "a new guest after signing out"

    dialog = account_form(page, "sign-up")
    submit_account(dialog, name.upper(), PASSWORD)
    assert form_error(page, dialog, "name_taken") == f"Sign up failed: The name '{name.upper()}' is taken."
    dialog.locator("[data-account-switch]").click()
    assert dialog.locator("#account-title").inner_text() == "Sign in"
    submit_account(dialog, name, "not the password")
    assert form_error(page, dialog, "wrong_password") == "Sign in failed: Wrong password."
    screenshots(page, "sign-in")
    submit_account(dialog, name, PASSWORD)
    page.wait_for_selector("#account[data-account=named]")
    assert stored_identity(page)["player_id"] == account
