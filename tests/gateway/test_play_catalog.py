"""`arena play` names no game: its --game choices, titles and presets come from the catalogue."""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import msgspec

import engine
from cli import play
from cli.play_render import catalog_lines

CLI = Path(play.__file__).resolve().parent


def test_no_play_module_names_a_game():
    for module in CLI.glob("play*.py"):
        text = module.read_text()
        for entry in engine.catalog().games:
            assert entry.title not in text, f"{module.name} names {entry.title!r}"
            assert not re.search(rf"""["']{re.escape(entry.id)}["']""", text), f"{module.name} names {entry.id!r}"


def test_the_game_option_names_the_registry_and_defaults_to_the_catalogues_first():
    parser = argparse.ArgumentParser()
    play.add_arguments(parser)
    option = next(action for action in parser._actions if action.dest == "game")
    assert option.default is None  # run() takes the first game of the server's catalogue
    assert ", ".join(engine.game_ids()) in option.help


def test_list_lines_show_every_game_and_its_presets():
    games = json.loads(msgspec.json.encode(engine.catalog()))["games"]
    lines = catalog_lines(games)
    assert len(lines) == 2 * len(games)
    for entry, head, presets in zip(games, lines[::2], lines[1::2]):
        assert head.split()[0] == entry["id"] and entry["title"] in head and entry["blurb"] in head
        if len(entry["presets"]) > 1:
            assert all(f"{p['id']} ({p['title']})" in presets for p in entry["presets"])
        else:
            assert presets.strip() == "a single form"
