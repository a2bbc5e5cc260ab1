"""Display names by player id (what the race pages show for racers), on the real server: an account's
name, none for a guest, the order asked, and bad asks refused with a clear 400 that reads nothing."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.integration


def test_names_of_an_account_and_a_guest_in_the_order_asked(http):
    name = f"nia{str(time.time_ns())[-8:]}"
    account = http.post("/api/accounts", json={"name": name, "password": "correct horse battery"}).json()
    guest = http.post("/api/players/guest").json()
    ids = f"{guest['player_id']},{account['player_id']},{guest['player_id']}"
    body = http.get("/api/players/names", params={"ids": ids})
    assert body.status_code == 200, body.text
    assert body.json() == {"players": [{"player": guest["player_id"], "name": None},
                                       {"player": account["player_id"], "name": name}]}


@pytest.mark.parametrize("ids", [",".join(f"g_{n:04d}" for n in range(33)), "g_1,not an id", "g_1,,g_2", "x" * 65, ""],
                         ids=["33 ids", "a space", "an empty id", "too long", "none"])
def test_bad_asks_get_a_clear_400(http, ids):
    answer = http.get("/api/players/names", params={"ids": ids})
    assert answer.status_code == 400 and answer.json()["code"] == "bad_request", answer.text
    assert "ids (query): " in answer.json()["message"], "says which parameter, and why"
