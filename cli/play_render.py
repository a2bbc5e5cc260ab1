"""Text rendering for `arena play`: cards, piles, the status line and the numbered legal moves.

Pure functions of the wire view (plain JSON dicts, as the socket delivers them), so they are tested
without a server and the socket loop (cli/play.py) never formats anything itself.
"""

from __future__ import annotations

from typing import Any

RANKS = {0: "W", 1: "A", 11: "J", 12: "Q", 13: "K"}
FRENCH = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
FRENCH_ASCII = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}
# The Wizard deck's seven suits have no common glyphs; two letters stay readable in any terminal.
WIZARD = {"moon": "Mo", "stars": "St", "fire": "Fi", "ice": "Ic", "potions": "Po", "spells": "Sp", "luck": "Lu"}
RED_SUITS = {"hearts", "diamonds", "fire"}
FACE_DOWN = "##"
STATUS_TEXT = {"in_progress": "in progress", "won": "won", "lost": "lost", "abandoned": "abandoned"}
# Face-down runs longer than this collapse to "##×n" (a two-deck stock holds 50 cards).
MAX_DOWN_SHOWN = 6
# Piles other than the tableau show only their last few cards: the top is what plays.
MAX_SIDE_CARDS = 5
# Move commands are padded to this width so the cards they touch line up in a column.
COMMAND_WIDTH = 16


class Style:
    """How cards are drawn: suit glyphs or letters, ANSI red or plain."""

    def __init__(self, ascii_only: bool = False, color: bool = False) -> None:
        self.ascii_only = ascii_only
        self.color = color

    def card(self, card: dict[str, Any]) -> str:  # Any: JSON
        rank = RANKS.get(card["rank"], str(card["rank"]))
        suit = card["suit"]
        symbols = FRENCH_ASCII if self.ascii_only else FRENCH
        text = rank + symbols.get(suit, WIZARD.get(suit, suit[:2]))
        if self.color and suit in RED_SUITS:
            return f"\x1b[31m{text}\x1b[0m"
        return text

    def down(self, count: int) -> str:
        if count <= MAX_DOWN_SHOWN:
            return " ".join([FACE_DOWN] * count)
        times = "x" if self.ascii_only else "×"
        return f"{FACE_DOWN}{times}{count}"

    def dot(self) -> str:
        return " - " if self.ascii_only else " · "

    def arrow(self) -> str:
        return "->" if self.ascii_only else "→"


PLAIN = Style()


def pile_line(pile: dict[str, Any], style: Style = PLAIN) -> str:  # Any: JSON
    """`t3  ## ## 9♠ 8♠`: face-down cards first, then the face-up ones bottom to top."""
    parts: list[str] = []
    if pile["down"]:
        parts.append(style.down(pile["down"]))
    cards = pile["cards"]
    if pile["kind"] != "tableau" and len(cards) > MAX_SIDE_CARDS:
        parts.append(f"({len(cards) - MAX_SIDE_CARDS} more)")
        cards = cards[-MAX_SIDE_CARDS:]
    parts.extend(style.card(card) for card in cards)
    body = " ".join(parts) if parts else "(empty)"
    # "t3", "f0", "stock" say what they are; any other name gets its kind beside it.
    named = pile["kind"] in ("tableau", "foundation") or pile["id"] == pile["kind"]
    label = pile["id"] if named else f"{pile['id']} ({pile['kind']})"
    return f"  {label:<8}{body}"


def elapsed_text(elapsed_ms: int | None) -> str:
    if elapsed_ms is None:
        return "-:--"
    seconds = elapsed_ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def info_text(info: dict[str, Any]) -> list[str]:  # Any: JSON
    """The game's own counters, named in words; flags only when set, absent values left out."""
    parts = []
    for key, value in info.items():
        name = key.replace("_", " ")
        if value is None:
            continue
        if isinstance(value, bool):
            if value:
                parts.append(name)
            continue
        parts.append(f"{name} {value}")
    return parts


def status_line(view: dict[str, Any], version: int, elapsed_ms: int | None, style: Style = PLAIN) -> str:  # Any: JSON
    parts = [
        STATUS_TEXT.get(view["status"], view["status"]),
        f"moves {view['moves']}",
        f"version {version}",
        f"time {elapsed_text(elapsed_ms)}",
    ]
    if view.get("undos"):
        parts.insert(2, f"undos {view['undos']}")
    notes = list(view.get("notes") or ())  # the engine's own words; older servers send only `info`
    return style.dot().join(parts + (notes or info_text(view.get("info", {}))))


def title_line(view: dict[str, Any], game_id: str, role: str = "player", title: str | None = None) -> str:  # Any: JSON
    """`title` is the game's title from the server's catalogue; without one the game id stands in."""
    title = title or view["game"]
    variant = ", ".join(f"{key} {value}" for key, value in view.get("variant", {}).items() if value is not None)
    watching = "  [watching: not your game]" if role == "spectator" else ""
    return f"{title}" + (f" ({variant})" if variant else "") + f"  game {game_id}{watching}"


def _top(view: dict[str, Any], pile_id: str, count: int = 1) -> list[dict[str, Any]]:  # Any: JSON
    for pile in view["piles"]:
        if pile["id"] == pile_id:
            return list(pile["cards"][-count:]) if count else []
    return []


def _card_by_id(view: dict[str, Any], card_id: int) -> dict[str, Any] | None:  # Any: JSON
    for pile in view["piles"]:
        for card in pile["cards"]:
            if card["id"] == card_id:
                return card
    return None


def move_text(move: dict[str, Any], view: dict[str, Any] | None = None, style: Style = PLAIN) -> str:  # Any: JSON
    """A move as the command that plays it, with the cards it touches when the view shows them."""
    kind = move["type"]
    if kind == "pair":
        text = f"pair {move['a']} {move['b']}"
        if view is not None:
            cards = _top(view, f"t{move['a']}") + _top(view, f"t{move['b']}")
            if len(cards) == 2:
                text = f"{text:<{COMMAND_WIDTH}}" + " + ".join(style.card(card) for card in cards)
        return text
    if kind == "move":
        count = move.get("count", 1)
        text = f"move {move['src']} {move['dst']}" + (f" {count}" if count != 1 else "")
        if view is not None:
            moving = _top(view, move["src"], count)
            onto = _top(view, move["dst"])
            if moving:
                target = style.card(onto[0]) if onto else "empty"
                moved = " ".join(style.card(card) for card in moving)
                text = f"{text:<{COMMAND_WIDTH}}{moved} {style.arrow()} {target}"
        return text
    if kind == "luck":
        card = _card_by_id(view, move["card"]) if view is not None else None
        text = f"luck {move['card']} {move['dst']}"
        return f"{text:<{COMMAND_WIDTH}}{style.card(card)}" if card else text
    return kind  # deal, recycle, cast, undo, resign carry no fields


def legal_lines(view: dict[str, Any], style: Style = PLAIN) -> list[str]:  # Any: JSON
    legal = view.get("legal", [])
    if not legal:
        return ["No legal move."]
    width = len(str(len(legal)))
    lines = ["Legal moves:"]
    lines.extend(f"  {n:>{width}}) {move_text(move, view, style)}" for n, move in enumerate(legal, start=1))
    return lines


def render_view(
    view: dict[str, Any],  # Any: JSON
    game_id: str,
    version: int,
    elapsed_ms: int | None,
    role: str = "player",
    style: Style = PLAIN,
    title: str | None = None,
) -> str:
    """The whole screen for one version: title, piles, status line and, for the player, the moves."""
    lines = [title_line(view, game_id, role, title)]
    lines.extend(pile_line(pile, style) for pile in view["piles"])
    lines.append(status_line(view, version, elapsed_ms, style))
    if role == "player" and (view["status"] == "in_progress" or view.get("legal")):  # a lost game may still list an undo
        lines.extend(legal_lines(view, style))
    return "\n".join(lines)


def catalog_lines(games: list[dict[str, Any]]) -> list[str]:  # Any: JSON
    """`arena play --list`: each game of the server's catalogue, its blurb and its presets' ids."""
    lines = []
    for entry in games:
        lines.append(f"{entry['id']:<16}{entry['title']}: {entry['blurb']}")
        presets = ", ".join(f"{p['id']} ({p['title']})" for p in entry["presets"])
        lines.append(f"{'':<16}--preset {presets}" if len(entry["presets"]) > 1 else f"{'':<16}a single form")
    return lines


def result_line(view: dict[str, Any], elapsed_ms: int | None) -> str:  # Any: JSON
    """The last line of a finished game; tests and scripts look for `Game over: won|lost|abandoned`."""
    status = STATUS_TEXT.get(view["status"], view["status"])
    return f"Game over: {status} after {view['moves']} moves, time {elapsed_text(elapsed_ms)}."
