"""GET /api/games/{id}/replay/views on the real gateway: every step of a public game, every card
face up, with server times and the solver's review; nothing at all before the deal may be public."""

from __future__ import annotations

import datetime as dt
import json

import httpx
import msgspec
import pytest

import engine
from engine import intents as it
from engine.reveal import revealed_state_view
from engine.solver import solve
from engine.solver.advice import point_of_no_return
from services.games.entries import GameLinks
from services.games.service import GameService
from services.store import EventStore
from services.tournaments.service import TournamentService
from services.validator import replay_views
from tests.gateway.client import Audit, Client
from tests.support.play import IN_PLAY_WISH, WISH_OPEN, lost_wish_line, winnable_wish_seed

pytestmark = pytest.mark.integration


def as_json(value) -> object:
    return json.loads(msgspec.json.encode(value))


def play(client: Client, game_id: str, moves: list[dict]) -> None:
    sock = client.open(game_id)
    version = sock.recv()["snapshot"]["version"]
    for move in moves:
        assert sock.move(version, move)["type"] == "s2c.accepted", move
        version += 1
    sock.close()


def no_card_in(body: dict) -> bool:
    text = json.dumps(body)
    return '"rank"' not in text and '"suit"' not in text and '"piles"' not in text


@pytest.fixture(scope="module")
def won(gateway, sync_redis_client):
    """A Wish won with the solver's line over the socket: (game id, seed, intents, views body, replay file)."""
    with httpx.Client(base_url=gateway.url, timeout=30) as http:
        alice = Client.guest(gateway.url, http, Audit(sync_redis_client))
        seed = winnable_wish_seed(200)
        line = solve(engine.initial_state("wish", WISH_OPEN, seed)).line
        created = alice.create("wish", WISH_OPEN, seed=seed)
        refused = http.get(f"/api/games/{created['id']}/replay/views")
        assert refused.status_code == 403 and refused.json()["code"] == "not_public_yet" and no_card_in(refused.json())
        play(alice, created["id"], [as_json(intent) for intent in line])
        views = http.get(f"/api/games/{created['id']}/replay/views").raise_for_status().json()
        file = http.get(f"/api/games/{created['id']}/replay").raise_for_status().json()
        return created["id"], seed, line, views, file


def test_every_step_is_the_engines_position_with_every_card_face_up(won):
    game_id, seed, line, views, file = won
    assert (views["game_id"], views["game"], views["seed"], views["status"]) == (game_id, "wish", seed, "won")
    steps = views["steps"]
    assert len(steps) == len(line) + 1 and views["moves"] == len(line)
    state = engine.initial_state("wish", WISH_OPEN, seed)
    assert steps[0]["view"] == as_json(engine.revealed_view("wish", WISH_OPEN, seed)) and steps[0]["move"] is None
    for step, intent in zip(steps[1:], line):
        state, _ = engine.play(intent, state)
        assert step["move"] == as_json(intent)
        assert step["view"] == as_json(revealed_state_view(state))
        assert [card["id"] for card in step["cards"]] == list(step["event"]["cards"])
    assert steps[-1]["view"]["status"] == "won"


def test_each_move_has_the_logged_server_time(won):
    _, _, _, views, file = won
    logged = [entry["at_ms"] for entry in file["entries"] if entry["entry"]["type"] == "pair_removed"]
    # The first look's own time (the clock's start), not the moment its entry was stored a millisecond later.
    shown = next(entry["entry"]["at_ms"] for entry in file["entries"] if entry["entry"]["type"] == "game_shown")
    assert [step["at_ms"] for step in views["steps"]] == [shown, *logged]
    assert [step["elapsed_ms"] for step in views["steps"]] == [at - shown for at in [shown, *logged]]
    assert views["time_ms"] == file["result"]["time_ms"] == views["steps"][-1]["elapsed_ms"]


def test_a_won_game_is_winnable_throughout_beside_the_solvers_line(won):
    _, _, line, views, _ = won
    analysis = views["analysis"]
    assert analysis["verdicts"] == ["winnable"] * (len(line) + 1)
    assert analysis["point_of_no_return"] == "never" and analysis["lost_at"] is None
    assert analysis["shortest_line"] == len(line) == 16  # every Wish win takes 16 pairs
    assert 0 in analysis["searched"] and analysis["nodes"] <= analysis["budget"]["total"]


def test_a_lost_game_shows_the_move_that_lost_it(alice, http):
    seed, line = lost_wish_line()
    created = alice.create("wish", {"mode": "standard"}, seed=seed)
    play(alice, created["id"], [as_json(intent) for intent in line])
    views = http.get(f"/api/games/{created['id']}/replay/views").raise_for_status().json()
    assert views["status"] == "lost"
    start = engine.initial_state("wish", {"mode": "standard"}, seed)
    advice = point_of_no_return(start, line)
    assert advice.result == "found"
    analysis = views["analysis"]
    lost = advice.index + 1  # the step after the move that lost it
    assert analysis["point_of_no_return"] == "found" and analysis["lost_at"] == lost
    assert analysis["verdicts"] == ["winnable"] * lost + ["unwinnable"] * (len(line) + 1 - lost)
    assert views["steps"][0]["hidden"] == sorted(engine.hidden_cards(start)) != [], "what the player could not see"


def test_a_missing_game_has_no_views(http):
    found = http.get("/api/games/0123456789abcdef/replay/views")
    assert found.status_code == 404 and found.json()["code"] == "no_such_game"


async def revealed_challenge(redis_client, service: GameService, day: dt.date) -> str:
    """A Wish daily of `day` prepared the evening before and revealed after its grace, by a tournament
    service of its own on the gateway's Redis (the gateway learns the reveal from the stream)."""
    now = [int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000) - 3600_000]
    tournaments = TournamentService(redis_client, service, secret=b"replay views tournament secret 0123",
                                    clock=lambda: now[0], daily_games=("wish",))
    [ref] = [r for r in tournaments.challenges_of(day) if r.key.endswith("/wish/mode=standard")]
    assert (await tournaments.prepare(ref)).prepared is not None
    now[0] += 3 * 24 * 3600_000
    assert (await tournaments.settle(ref)).revealed is not None
    return ref.key


async def test_a_daily_before_its_reveal_serves_no_card_to_anyone(gateway, redis_client):
    service = GameService(EventStore(redis_client), redis_client)  # the gateway's own store and keys
    today = dt.datetime.now(dt.UTC).date().isoformat()
    revealed_key = await revealed_challenge(redis_client, service, dt.date(2020, 1, 1))
    games = {}
    # Today's (open), a past day's never revealed (its scheduler away: the deal stays secret), a revealed one.
    for name, key in (("open", f"{today}/wish/mode=standard"), ("unrevealed", "2020-01-02/wish/mode=standard"),
                      ("revealed", revealed_key)):
        games[name] = game = await service.create_game("g_daily", "wish", None, IN_PLAY_WISH, kind="daily",
                                                       links=GameLinks(challenge=key))
        await service.open_for(game.id, "g_daily")
        assert (await service.submit("g_daily", game.id, "r", 0, it.ResignIntent())).answer.accepted
    async with httpx.AsyncClient(base_url=gateway.url, timeout=30) as http:
        for name in ("open", "unrevealed"):
            for path in ("replay/views", "replay"):
                refused = await http.get(f"/api/games/{games[name].id}/{path}")
                assert refused.status_code == 403 and refused.json()["code"] == "not_public_yet", (name, path)
                assert no_card_in(refused.json())
        revealed = (await http.get(f"/api/games/{games['revealed'].id}/replay/views")).raise_for_status().json()
    assert revealed["kind"] == "daily" and revealed["status"] == "abandoned" and len(revealed["steps"]) == 2


def test_a_busy_server_says_come_back_later(alice, http, monkeypatch):
    created = alice.create("wish", WISH_OPEN)
    while alice.summary(created["id"])["status"] != "in_progress":  # a deal lost as dealt cannot resign
        created = alice.create("wish", WISH_OPEN)
    play(alice, created["id"], [{"type": "resign"}])
    monkeypatch.setattr(replay_views, "MAX_WAITING", 0)  # the gateway runs in this process: no room at all
    busy = http.get(f"/api/games/{created['id']}/replay/views")
    assert busy.status_code == 503 and busy.json()["code"] == "unavailable"
    monkeypatch.setattr(replay_views, "MAX_WAITING", 4)
    first = http.get(f"/api/games/{created['id']}/replay/views").raise_for_status()
    monkeypatch.setattr(replay_views, "MAX_WAITING", 0)  # now answered from the LRU: no review to wait for
    again = http.get(f"/api/games/{created['id']}/replay/views").raise_for_status()
    assert again.content == first.content and first.json()["steps"][1]["move"] == {"type": "resign"}
