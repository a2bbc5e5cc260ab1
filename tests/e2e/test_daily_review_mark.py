"""The human-speed review's mark in the browser: on an `arena serve` of its own (the Wish only, a test clock,
its validator inside), a script wins the daily at the audited tempo and a person at theirs, over the socket;
the leaderboard page shows "review" beside the script's win, in its place, and nothing beside the person's,
until `arena review clear` on the server's Redis takes the mark off."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from urllib.parse import quote

import httpx
import pytest
import redis

from tests.gateway.client import Audit
from tests.gateway.test_dailies import register
from tests.gateway.test_daily_review import PERSON, SCRIPT, win_at_tempo

from .conftest import watched_page
from .daily import daily_server, get_json, screenshots, unique_name, wait_for

pytestmark = pytest.mark.browser

DAY = dt.date(2033, 4, 21)
OPENS = int(dt.datetime(DAY.year, DAY.month, DAY.day, tzinfo=dt.UTC).timestamp() * 1000)
HOUR = 3600 * 1000
KEY = f"{DAY.isoformat()}/wish/mode=standard"


def test_a_flagged_win_shows_review_until_an_operator_clears_it(tmp_path_factory, chromium_path, browser,
                                                                console_errors):
    with daily_server(tmp_path_factory, "review", OPENS - HOUR, validators=1) as (server, clock):
        store = redis.Redis.from_url(server.embedded_redis_url())
        http = httpx.Client(base_url=server.url, timeout=20)
        audit = Audit(store)
        day = f"/api/dailies/{DAY.isoformat()}"
        wait_for(lambda: get_json(server.url, day)["challenges"], "the Wish prepared")
        bot, person = register(http, unique_name("bot"), audit), register(http, unique_name("amy"), audit)
        clock.set(OPENS + HOUR)
        wait_for(lambda: get_json(server.url, day)["challenges"][0]["challenge"]["status"] == "open", "the opening")
        games = {c.player_id: http.post(f"/api/dailies/{KEY}/attempt", headers=c.headers).json()["id"]
                 for c in (bot, person)}
        win_at_tempo(bot, server.url, games[bot.player_id], clock, OPENS + HOUR, SCRIPT, store)
        win_at_tempo(person, server.url, games[person.player_id], clock, OPENS + 2 * HOUR, PERSON, store)
        wait_for(lambda: len(get_json(server.url, f"/api/dailies/{KEY}/leaderboard")["page"]["rows"]) == 2,
                 "both wins verified")

        with watched_page(browser, server.url, console_errors) as page:
            page.goto(f"/leaderboard.html?challenge={quote(KEY)}")
            flagged = page.locator(f'tr[data-player="{bot.player_id}"]')
            mark = flagged.locator(".review")
            mark.wait_for()
            assert mark.inner_text().startswith("review") and "metronome" in mark.get_attribute("title")
            assert "metronome" in mark.text_content()  # the reasons in words for a screen reader too
            assert flagged.locator(".rank").inner_text() == "1"  # its place is kept
            assert page.locator(f'tr[data-player="{person.player_id}"] .review').count() == 0
            screenshots(page, "leaderboard-review")

            env = {**os.environ, "REDIS_URL": server.embedded_redis_url(), "ARENA_TEST_CLOCK_FILE": str(clock.path)}
            cleared = subprocess.run([sys.executable, "-m", "cli.main", "review", "clear", KEY, bot.player_id,
                                      "--note", "watched the replay"], capture_output=True, text=True, env=env,
                                     timeout=60)
            assert cleared.returncode == 0, cleared.stdout + cleared.stderr
            page.reload()
            page.locator(f'tr[data-player="{bot.player_id}"]').wait_for()
            assert page.locator(".review").count() == 0
        http.close()
        store.close()
