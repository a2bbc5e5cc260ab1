"""The terminal client's renderer and command parser, on real engine views as the socket sends them."""

from __future__ import annotations

import json
import re

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from cli.play_commands import parse_line
from cli.play_render import (
    PLAIN,
    Style,
    elapsed_text,
    legal_lines,
    move_text,
    pile_line,
    render_view,
    result_line,
    status_line,
)
from tests.strategies import random_games, registered_variants


def wire_view(state: engine.GameState) -> dict:
    """The view exactly as a socket frame carries it: JSON, not structs."""
    return json.loads(msgspec.json.encode(engine.player_view(state)))


def card(rank: int, suit: str, card_id: int = 0) -> dict:
    return {"id": card_id, "rank": rank, "suit": suit}


def pile(pile_id: str, kind: str, down: int, cards: list[dict]) -> dict:
    return {"id": pile_id, "kind": kind, "down": down, "cards": cards}


@pytest.mark.parametrize(
    ("rank", "suit", "text", "ascii_text"),
    [(12, "hearts", "Q♥", "QH"), (10, "spades", "10♠", "10S"), (1, "diamonds", "A♦", "AD"), (13, "clubs", "K♣", "KC"),
     (0, "moon", "WMo", "WMo"), (7, "luck", "7Lu", "7Lu")],
)
def test_card_labels(rank, suit, text, ascii_text):
    assert PLAIN.card(card(rank, suit)) == text
    assert Style(ascii_only=True).card(card(rank, suit)) == ascii_text


def test_colour_marks_red_suits_only():
    coloured = Style(color=True)
    assert coloured.card(card(12, "hearts")) == "\x1b[31mQ♥\x1b[0m"
    assert coloured.card(card(12, "spades")) == "Q♠"


def test_face_down_cards_show_as_hashes_and_long_runs_collapse():
    assert pile_line(pile("t0", "tableau", 3, [card(9, "spades")])) == "  t0      ## ## ## 9♠"
    assert pile_line(pile("stock", "stock", 50, [])) == "  stock   ##×50"
    assert pile_line(pile("stock", "stock", 50, []), Style(ascii_only=True)) == "  stock   ##x50"
    assert pile_line(pile("t4", "tableau", 0, [])) == "  t4      (empty)"


def test_side_piles_show_their_last_cards_and_the_tableau_shows_all():
    cards = [card(rank, "fire", rank) for rank in range(1, 9)]
    assert pile_line(pile("waste", "waste", 0, cards)) == "  waste   (3 more) 4Fi 5Fi 6Fi 7Fi 8Fi"
    assert pile_line(pile("t1", "tableau", 0, cards)).split()[1:] == ["AFi"] + [f"{r}Fi" for r in range(2, 9)]


def test_elapsed_text():
    assert elapsed_text(None) == "-:--"
    assert elapsed_text(61_999) == "1:01"
    assert elapsed_text(3_723_000) == "1:02:03"


def test_status_line_names_status_moves_version_time_and_the_game_counters():
    view = wire_view(engine.initial_state("wish", {}, 1))
    assert status_line(view, 0, 61_234) == "in progress · moves 0 · version 0 · time 1:01 · 32 cards left"
    view["notes"] = []  # a server without the engine's words: its counters are shown as they come
    view["info"] = {"cast_open": True, "luck_open": False, "redeals_left": None, "stock_count": 3}
    assert status_line(view, 7, None).endswith("time -:-- · cast open · stock count 3")


def test_render_shows_the_listed_moves_to_the_player_only_while_any_is_listed():
    view = wire_view(engine.initial_state("wish", {}, 1))
    screen = render_view(view, "g1", 0, 0, title="The Wish")
    assert screen.splitlines()[0] == "The Wish (mode standard)  game g1"
    assert render_view(view, "g1", 0, 0).splitlines()[0] == "wish (mode standard)  game g1"  # no catalogue: the id
    assert "Legal moves:" in screen and "  1) pair 1 3" in screen
    assert screen.splitlines()[-1].endswith(") resign")  # listed by the server, last
    watched = render_view(view, "g1", 0, 0, role="spectator")
    assert "[watching: not your game]" in watched and "Legal moves" not in watched
    view["status"], view["legal"] = "won", []
    assert "Legal moves" not in render_view(view, "g1", 16, 0)
    assert result_line(view, 75_000) == "Game over: won after 0 moves, time 1:15."
    view["status"], view["legal"] = "lost", [{"type": "undo"}]  # a lost Spider game lists its undo
    assert render_view(view, "g1", 16, 0).splitlines()[-2:] == ["Legal moves:", "  1) undo"]


def test_move_text_names_the_cards_a_move_touches():
    view = {"piles": [pile("t0", "tableau", 0, [card(10, "hearts", 1)]),
                      pile("t1", "tableau", 2, [card(9, "spades", 2), card(8, "spades", 3)]),
                      pile("t2", "tableau", 0, [])]}
    assert move_text({"type": "move", "src": "t1", "dst": "t0", "count": 2}, view).split() == [
        "move", "t1", "t0", "2", "9♠", "8♠", "→", "10♥"]
    assert move_text({"type": "move", "src": "t0", "dst": "t2", "count": 1}, view).endswith("10♥ → empty")
    assert move_text({"type": "pair", "a": 0, "b": 1}, view).split() == ["pair", "0", "1", "10♥", "+", "8♠"]
    assert move_text({"type": "luck", "card": 2, "dst": "f0"}, view).split() == ["luck", "2", "f0", "9♠"]
    assert move_text({"type": "deal"}, view) == "deal"


def parse_pile_line(line: str) -> tuple[str, int, list[str]]:
    """(pile id, face-down count, face-up labels shown) read back from a rendered pile line."""
    words = line.split()
    pile_id, words = words[0], words[1:]
    if words and re.fullmatch(r"\([a-z]+\)", words[0]):  # a kind note like "(cleared)": the line names kind and id
        words = words[1:]
    down = 0
    while words and words[0].startswith("##"):
        down += int(words[0][3:]) if len(words[0]) > 2 else 1
        words = words[1:]
    if words[:1] == ["(empty)"]:
        words = []
    if words and re.fullmatch(r"\(\d+", words[0]):
        words = words[2:]
    return pile_id, down, words


@pytest.mark.parametrize(("game", "variant"), registered_variants())
@settings(max_examples=15)
@given(data=st.data())
def test_every_pile_line_reads_back_as_the_view(game, variant, data):
    _, _, state = data.draw(random_games(game, variant, max_moves=40))
    view = wire_view(state)
    lines = render_view(view, "g", state.moves, None).splitlines()[1 : 1 + len(view["piles"])]
    for shown, expected in zip(lines, view["piles"]):
        pile_id, down, labels = parse_pile_line(shown)
        assert (pile_id, down) == (expected["id"], expected["down"])
        wanted = [PLAIN.card(c) for c in expected["cards"]]
        assert labels == (wanted if expected["kind"] == "tableau" else wanted[-5:])


@pytest.mark.parametrize(("game", "variant"), registered_variants())
@settings(max_examples=15)
@given(data=st.data())
def test_each_listed_move_typed_as_shown_or_by_number_is_that_move(game, variant, data):
    _, _, state = data.draw(random_games(game, variant, max_moves=40))
    view = wire_view(state)
    legal = view["legal"]
    numbered = legal_lines(view)
    assert numbered == (["Legal moves:"] + numbered[1:] if legal else ["No legal move."])
    assert [line.split(")")[0].strip() for line in numbered[1:]] == [str(n) for n in range(1, len(legal) + 1)]
    for number, move in enumerate(legal, start=1):
        assert parse_line(str(number), legal).move == move
        assert parse_line(move_text(move), legal).move == move  # the command shown is the command to type


@pytest.mark.parametrize(
    ("line", "move"),
    [("pair 0 4", {"type": "pair", "a": 0, "b": 4}), ("pair t2 T11", {"type": "pair", "a": 2, "b": 11}),
     ("move t3 t7 2", {"type": "move", "src": "t3", "dst": "t7", "count": 2}),
     ("MOVE T3 waste", {"type": "move", "src": "t3", "dst": "waste", "count": 1}),
     ("deal", {"type": "deal"}), (" undo ", {"type": "undo"}), ("resign", {"type": "resign"}),
     ("luck 17 f0", {"type": "luck", "card": 17, "dst": "f0"})],
)
def test_typed_moves(line, move):
    assert parse_line(line, []).move == move


@pytest.mark.parametrize(
    ("line", "error"),
    [("pair 1", "pair needs two piles"), ("pair a b", "not a pile number"), ("move t1", "move needs a source"),
     ("move t1 t2 0", "not a card count"), ("deal 3", "deal takes no arguments"), ("luck x f0", "luck needs"),
     ("fly", "unknown command 'fly'"), ("3", "no move 3: pick 1 to 2"), ("0", "no move 0"),
     # Unicode digits and overlong numbers pass str.isdigit() but not int(): an error, not a crash.
     ("²", "unknown command '²'"), ("1" * 5000, "unknown command"), ("pair ² 1", "not a pile number"),
     ("move t1 t2 ²", "not a card count"), ("luck ² f0", "luck needs")],
)
def test_bad_lines_are_explained_and_send_nothing(line, error):
    command = parse_line(line, [{"type": "deal"}, {"type": "undo"}])
    assert command.move is None and error in command.error


@pytest.mark.parametrize(("line", "action"), [("quit", "quit"), ("q", "quit"), ("help", "help"), ("?", "help"),
                                              ("", "show"), ("show", "show")])
def test_client_commands(line, action):
    assert parse_line(line, []).action == action
