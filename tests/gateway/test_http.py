"""HTTP routes against the real server: identity, games, health, OpenAPI and the web client."""

from __future__ import annotations

import json

import msgspec
import pytest

import engine

pytestmark = pytest.mark.integration


def test_health_ready_and_schema(http):
    assert http.get("/health").json()["status"] == "ok"
    assert http.get("/ready").json()["status"] == "ready"
    assert http.get("/schema/openapi.json").json()["info"]["title"] == "Patience Arena"


def test_schema_viewer_is_served_from_here(http):
    """/schema names only this server's files (Swagger UI from its package): it works without internet."""
    import re

    page = http.get("/schema")
    assert page.status_code == 200 and "SwaggerUIBundle" in page.text
    refs = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert refs and all(ref.startswith("/") or ref.startswith("data:") for ref in refs), refs
    for ref in refs:
        if ref.startswith("/"):
            assert http.get(ref).status_code == 200, ref


def test_an_unknown_page_gets_the_html_page_and_an_unknown_api_url_json(http):
    page = http.get("/old/bookmark")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "not in the deck" in page.text
    for url in ("/api/nothing", "/schema-viewer/nothing.js", "/ws/nothing", "/schema/nothing", "/schema/a/b"):
        answer = http.get(url)
        assert answer.status_code == 404 and answer.json()["code"] == "not_found", url
    assert http.post("/old/bookmark").json()["code"] in ("not_found", "method_not_allowed"), "only a GET is a page"


def test_catalog_is_the_engines_catalogue_needs_no_token_and_is_in_the_openapi_schema(http):
    response = http.get("/api/catalog")
    assert response.status_code == 200
    assert response.json() == json.loads(msgspec.json.encode(engine.catalog()))
    assert [game["id"] for game in response.json()["games"]] == engine.game_ids()
    schema = http.get("/schema/openapi.json").json()
    answer = schema["paths"]["/api/catalog"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert answer["$ref"].endswith("/Catalog")
    entry = schema["components"]["schemas"]["GameEntry"]["properties"]
    assert {"presets", "variant_fields", "has_undo", "daily_eligible", "race_eligible"} <= entry.keys()


def test_web_client_served_at_root(http):
    response = http.get("/")
    assert response.status_code == 200 and "<html" in response.text.lower()


def test_requests_without_a_valid_token_are_refused(http, alice):
    assert http.get("/api/games").status_code == 401
    forged = {"Authorization": f"Bearer {alice.player_id}.not-the-signature"}
    response = http.post("/api/games", json={"game": "wish"}, headers=forged)
    assert response.status_code == 401 and response.json()["code"] == "bad_token"


def test_create_summary_and_my_games(alice, bob, http):
    game = alice.create("wish", {"mode": "open"}, seed=5)
    assert game["player_id"] == alice.player_id and game["seed"] is None and game["version"] == 0
    assert alice.summary(game["id"])["id"] == game["id"]
    mine = http.get("/api/games", headers=alice.headers).json()
    assert [g["id"] for g in mine][:1] == [game["id"]]
    assert http.get("/api/games", headers=bob.headers).json() == []


def test_a_new_game_comes_with_a_ticket_for_one_socket(alice):
    """The creation's answer carries a socket ticket (no POST /api/tickets before the first socket); used
    once, like any ticket: a second socket with it is refused."""
    game = alice.create("wish", {"mode": "standard"}, seed=5)
    assert game["ticket"] and game["ticket_expires_in_ms"] > 0
    sock = alice.open(game["id"], ticket=game["ticket"])
    assert sock.recv()["type"] == "s2c.snapshot"
    again = alice.open(game["id"], ticket=game["ticket"])
    assert again.recv()["code"] == "bad_ticket"
    sock.close()
    again.close()


def test_bad_create_gets_a_clear_error(alice, http):
    for body, code in [
        ({"game": "chess"}, "unknown_game"),
        ({"game": "wish", "variant": {"mode": "blind"}}, "bad_variant"),
        ({"game": "wish", "seed": -1}, "bad_seed"),
        ({"game": "wish", "seed": 2**64}, "bad_seed"),
    ]:
        response = http.post("/api/games", json=body, headers=alice.headers)
        assert response.status_code == 400, (body, response.text)
        assert response.json().get("code") == code, (body, response.text)
    assert http.post("/api/games", json={"gaem": "wish"}, headers=alice.headers).status_code == 400


def test_unknown_game_is_404(alice, http):
    response = http.get("/api/games/0000000000000000", headers=alice.headers)
    assert response.status_code == 404 and response.json()["code"] == "no_such_game"


def nested(depth: int, leaf: str = "1") -> str:
    return '{"a":' * depth + leaf + "}" * depth


MALFORMED_BODIES = {
    "nested 1,000 deep": '{"game": "wish", "variant": ' + nested(1_000) + "}",  # was a 500 (500 deep: a 400)
    "nested 100,000 deep": '{"game": "wish", "variant": ' + nested(100_000) + "}",
    "lists nested 5,000 deep": '{"game": "wish", "variant": {"a": ' + "[" * 5_000 + "]" * 5_000 + "}}",
    "a 5,000-digit seed": '{"game": "wish", "seed": ' + "9" * 5_000 + "}",
    "a 400-digit number in the variant": '{"game": "wish", "variant": {"mode": ' + "9" * 400 + "}}",
    "a float overflow": '{"game": "wish", "variant": {"mode": 1e999}}',
    "a seed in a string": '{"game": "wish", "seed": "7"}',  # was created: Litestar coerced it to 7
    "a boolean seed": '{"game": "wish", "seed": true}',
    "a fractional seed": '{"game": "wish", "seed": 1.5}',
    "a number for the game": '{"game": 5}',
    "a list for the variant": '{"game": "wish", "variant": [1]}',
    "a list": "[1, 2]",
    "a string": '"wish"',
    "null": "null",
    "nothing": "",
    "not JSON": "{oops",
    "an unknown field": '{"game": "wish", "gaem": "wish"}',
    "bad UTF-8": b'{"game": "\xff"}',
}


def test_a_whole_number_written_with_a_fraction_is_that_integer(alice, http):
    """JSON Schema's rule, which the API's schema follows: 7.0 is the integer 7 (seed and variant alike)."""
    body = '{"game": "patient-pairs", "variant": {"piles": 11.0}, "seed": 7.0}'
    response = http.post("/api/games", content=body, headers={**alice.headers, "content-type": "application/json"})
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["variant"] == {"piles": 11} and created["kind"] == "practice" and created["chosen_deal"]


@pytest.mark.parametrize("body", MALFORMED_BODIES.values(), ids=MALFORMED_BODIES.keys())
def test_every_malformed_body_gets_a_400_with_the_error_body(alice, http, body):
    response = http.post(
        "/api/games", content=body, headers={**alice.headers, "content-type": "application/json"}
    )
    assert response.status_code == 400, response.text[:300]
    error = response.json()
    assert set(error) == {"code", "message"} and error["code"] in {"bad_json", "bad_body", "bad_variant", "bad_seed"}, error
    assert http.get("/api/games", headers=alice.headers).json() == []  # nothing was created
