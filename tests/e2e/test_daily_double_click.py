"""Issue 31 (daily integrity) through the browser: one ranked attempt per account, however Play is pressed.

A named account (made before the day opened, so its attempt is ranked) presses Play on the hub twice:
a double click, then two clicks in one tick with the button's disabled state taken off between them (a
scripted client past the button), then two and more POSTs of the attempt at once straight from the page
(past the client altogether: the server's own race). Each time the answer is one game, the account has
exactly one daily game, and after moves on it (a win, checked by the server's validator, for the first)
the board says playing, pending or verified, never abandoned: a second game made and resigned by a race
must not end the attempt. Also: the Play button is busy while its request is out and works again after
an error, and the hub marks a deal that was not proven winnable (`check: weak`) and tells a guest
that its daily is unranked, on a deal of the guests' own."""

from __future__ import annotations

import datetime as dt
import time
from urllib.parse import quote

import httpx
import msgspec
import pytest

import engine
from engine.solver import solve

from .board import Board
from .conftest import watched_page
from .daily import (
    account_form, challenge_of, daily_server, get_json, screenshots, seed_from_log, stored_identity, submit_account,
    unique_name, wait_for,
)

pytestmark = pytest.mark.browser

DAY = dt.date(2033, 5, 2)
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
KEY = f"{DAY.isoformat()}/wish/mode=standard"
PATH = "/api/dailies/" + "/".join(quote(part, safe="") for part in KEY.split("/"))  # as api.js sends it
PLAY = f'[data-day=today] .daily-card[data-challenge="{KEY}"] [data-daily=play]'
PASSWORD = "correct horse battery"
ROLES = ("dbl", "two", "raw")
STILL_S = 2.0  # how long the standing is watched after the moves: a resigned second game ends late


def sign_up(url: str, name: str) -> None:
    with httpx.Client(base_url=url, timeout=10) as http:
        guest = http.post("/api/players/guest").raise_for_status().json()["token"]
        http.post("/api/accounts", json={"name": name, "password": PASSWORD},
                  headers={"Authorization": f"Bearer {guest}"}).raise_for_status()


@pytest.fixture(scope="module")
def open_day(tmp_path_factory, chromium_path):
    """(server, names by role): the accounts are made at 23:00 the day before, then the day opens (01:00):
    an account made after a challenge opened would play it unranked, on the guests' deal."""
    with daily_server(tmp_path_factory, "double", OPENS - HOUR, validators=1) as (server, clock):
        wait_for(lambda: any(c["challenge"] == KEY for c in get_json(server.url, "/api/dailies")["upcoming"]),
                 "the day's commitment")
        names = {role: unique_name(role) for role in ROLES}
        for name in names.values():
            sign_up(server.url, name)
        clock.set(OPENS + HOUR)
        wait_for(lambda: (challenge_of(get_json(server.url, "/api/dailies")["today"], KEY) or {}).get("status") == "open",
                 "the day open")
        yield server, names


@pytest.fixture
def hub_page(browser, open_day, console_errors):
    with watched_page(browser, open_day[0].url, console_errors, 1280, 800) as page:
        yield page


def sign_in(page, name: str) -> str:
    """Sign in through the account dialog on the hub; the account's token."""
    page.goto("/")
    submit_account(account_form(page, "sign-in"), name, PASSWORD)
    page.wait_for_selector("#account[data-account=named]")
    page.locator(PLAY).wait_for()
    return stored_identity(page)["token"]


def api(url: str, token: str, method: str, path: str):
    with httpx.Client(base_url=url, timeout=10) as http:
        return http.request(method, path, headers={"Authorization": f"Bearer {token}"}).raise_for_status().json()


def attempt_posts(page) -> list[str]:
    """The attempt POSTs the page sends from now on."""
    posts: list[str] = []
    page.on("request", lambda request: request.method == "POST" and request.url.endswith("/attempt")
            and posts.append(request.url))
    return posts


def solution(server, game_id: str) -> list[dict]:
    seed = seed_from_log(server.embedded_redis_url(), game_id)
    return [msgspec.to_builtins(i) for i in solve(engine.initial_state("wish", {"mode": "standard"}, seed)).line]


def assert_one_ranked_attempt(server, token: str, game_id: str, statuses: tuple[str, ...]) -> None:
    """The account has one daily game on the challenge, `game_id`, ranked and not resigned; asking for the
    attempt again answers it; the board's standing is one of `statuses` and stays so (a second game that
    a race made and resigned would end the attempt as abandoned, a moment after)."""
    games = [g for g in api(server.url, token, "GET", "/api/games") if g["kind"] == "daily" and g["challenge"] == KEY]
    assert [g["id"] for g in games] == [game_id], f"one daily game, not {[(g['id'], g['status']) for g in games]}"
    assert games[0]["ranked"] and games[0]["status"] != "abandoned"
    assert api(server.url, token, "POST", f"{PATH}/attempt")["id"] == game_id
    deadline = time.monotonic() + STILL_S
    while True:
        mine = api(server.url, token, "GET", f"{PATH}/leaderboard")["mine"]
        assert mine["status"] in statuses, mine
        if time.monotonic() > deadline:
            break
        time.sleep(0.2)


def assert_pages_say(page, statuses: tuple[str, ...]) -> None:
    """The hub and the leaderboard page show the same standing, never "abandoned"."""
    page.goto("/")
    mine = page.locator(f'[data-day=today] .daily-card[data-challenge="{KEY}"] .daily-mine')
    mine.wait_for()
    assert mine.get_attribute("data-mine") in statuses
    assert "Resigned" not in mine.inner_text()
    page.goto(f"/leaderboard.html?challenge={quote(KEY)}")
    standing = page.locator(".standing")
    standing.wait_for()
    assert standing.get_attribute("data-mine") in statuses


def open_attempt(page) -> tuple[Board, str]:
    page.wait_for_url("**/#/play/*")
    board = Board(page)
    board.wait_ready(0)
    board.wait_online()
    return board, page.evaluate("window.arena.state.gameId")


def test_play_is_busy_while_asked_then_a_double_click_is_one_attempt_won(hub_page, open_day, console_errors):
    server, names = open_day
    page = hub_page
    console_errors.allow(r"Failed to load resource: .*status of 503")  # the refusal made below
    token = sign_in(page, names["dbl"])
    play = page.locator(PLAY)

    # The answer held back: the button is disabled and aria-busy until it comes. A 503 then: enabled
    # again, and the toast says what did not start and why.
    held = []
    page.route(f"**{PATH}/attempt", lambda route: held.append(route))  # answered below
    play.click()
    page.wait_for_function("(s) => document.querySelector(s)?.getAttribute('aria-busy') === 'true'", arg=PLAY)
    assert play.is_disabled() and len(held) == 1
    held[0].fulfill(status=503, json={"code": "unavailable", "message": "the server is busy"})
    toast = page.locator("#toast[data-kind=error]:not([hidden])")
    toast.wait_for()
    assert toast.inner_text() == "Your attempt did not start: The server is busy."
    page.wait_for_function("(s) => !document.querySelector(s).disabled", arg=PLAY)
    assert play.get_attribute("aria-busy") is None
    page.unroute(f"**{PATH}/attempt")

    # A double click: one request, one game.
    posts = attempt_posts(page)
    play.dblclick()
    board, game_id = open_attempt(page)
    assert len(posts) == 1, posts
    assert page.evaluate("window.arena.state.view.status") == "in_progress"

    # Won through the board; the server's validator checks it: pending, then verified.
    line = solution(server, game_id)
    board.play_line(line)
    assert "You won" in board.end_dialog().inner_text()
    assert_one_ranked_attempt(server, token, game_id, ("pending", "verified"))
    page.get_by_role("button", name="Start page").click()
    assert_pages_say(page, ("pending", "verified"))


def test_two_clicks_in_one_tick_past_the_disabled_button_are_one_attempt(hub_page, open_day):
    server, names = open_day
    page = hub_page
    token = sign_in(page, names["two"])
    posts = attempt_posts(page)
    # As a script would: click, take the disabled state off the button, click again, all in one task.
    page.evaluate("""(selector) => {
      const button = document.querySelector(selector);
      button.click();
      button.disabled = false;
      button.removeAttribute("aria-busy");
      button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      button.click();
    }""", PLAY)
    board, game_id = open_attempt(page)
    assert len(posts) == 1, "the second and third clicks sent nothing while the first was out"
    board.play(solution(server, game_id)[0])
    assert_one_ranked_attempt(server, token, game_id, ("playing",))
    assert_pages_say(page, ("playing",))


def test_attempts_posted_at_once_past_the_client_are_one_attempt(hub_page, open_day):
    """The server's own race: four first requests for the attempt from one account, all at once."""
    server, names = open_day
    page = hub_page
    token = sign_in(page, names["raw"])
    answers = page.evaluate("""async ([path, token]) => {
      const post = () => fetch(path, { method: "POST", headers: { Authorization: `Bearer ${token}` } })
        .then(async (r) => ({ status: r.status, body: await r.json() }));
      return Promise.all([post(), post(), post(), post()]);
    }""", [f"{PATH}/attempt", token])
    assert [a["status"] for a in answers] == [200] * 4, answers
    ids = {a["body"]["id"] for a in answers}
    assert len(ids) == 1, f"one game for every request, not {ids}"
    (game_id,) = ids
    assert all(a["body"]["ranked"] for a in answers)
    # Played: the game that every answer named is the attempt, in play, and stays so.
    page.goto(f"/#/play/{game_id}")
    board, shown = open_attempt(page)
    assert shown == game_id and page.evaluate("window.arena.state.view.status") == "in_progress"
    board.play(solution(server, game_id)[0])
    assert_one_ranked_attempt(server, token, game_id, ("playing",))
    assert_pages_say(page, ("playing",))


def test_weak_check_label_and_the_guest_note(hub_page):
    """A day the server marks `check: weak` (the answer altered here: a real one needs a deal the solver
    could not prove) shows a small label that says why; a guest is told its daily is unranked, on the
    guests' deal, and that signing up ranks it from the next challenge on; an account made after the
    opening is told its attempt is unranked, on the guests' deal."""
    page = hub_page

    def weak(route):
        response = route.fetch()
        body = response.json()
        for card in body["today"]["challenges"]:
            card["challenge"]["check"] = "weak"
        route.fulfill(response=response, json=body)

    page.route("**/api/dailies", weak)
    page.goto("/")
    card = page.locator(f'[data-day=today] .daily-card[data-challenge="{KEY}"]')
    label = card.locator("header [data-check=weak]")
    label.wait_for()
    assert label.get_attribute("title") == "This day's deal was not proven winnable"
    assert label.inner_text().startswith("check: weak")
    assert page.locator("[data-check]").count() == 1, "a proven deal (the days ahead) carries no label"
    note = page.locator(".guest-note")
    assert "unranked, on a guests' deal (not the ranked one)" in note.inner_text()
    assert "one already open stays unranked" in note.inner_text()
    page.set_viewport_size({"width": 360, "height": 740})
    assert label.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "nothing wider than a phone"
    screenshots(page, "daily-check-weak")

    # An account made now, after the day opened: its attempt is answered unranked, and the page says why.
    submit_account(account_form(page, "sign-up"), unique_name("new"), PASSWORD)
    page.wait_for_selector("#account[data-account=named]")
    page.locator(PLAY).click()
    page.wait_for_url("**/#/play/*")
    toast = page.locator("#toast:not([hidden])")
    toast.wait_for()
    unranked = "Unranked: this challenge opened before your account, so you play the guests' deal."
    assert toast.inner_text() == unranked
    page.goto("/")
    hint = card.locator("[data-unranked=new_account]")
    hint.wait_for()
    assert hint.inner_text() == unranked
    assert card.locator(".daily-mine").get_attribute("data-mine") == "guest_playing"
