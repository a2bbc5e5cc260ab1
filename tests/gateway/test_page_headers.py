"""Every page of the web client opens with the same top bar. The pages are plain HTML with no build step,
so the bar is written out in each (it shows before any script runs, and without one); this keeps the
copies from drifting apart: the same brand and links in the same order on every page, and a page that
is one of the links marked as the current page."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "web_client" / "static"
PAGES = sorted(STATIC.glob("*.html"))
NAV = [("./", "Daily"), ("race.html", "Race"), ("rules.html", "Rules"), ("stats.html", "Statistics")]


class TopBar(HTMLParser):
    """The links inside <header class="topbar">: (href, text, aria-current) in order."""

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.inside, self.links, self._link = 0, False, [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "header" and "topbar" in (attrs.get("class") or "").split():
            self.inside, self.depth = True, 0
        if self.inside:
            self.depth += 1
            if tag == "a":
                self._link = [attrs.get("href"), "", attrs.get("aria-current"), attrs.get("class")]

    def handle_endtag(self, tag):
        if not self.inside:
            return
        if tag == "a" and self._link is not None:
            self.links.append(tuple(self._link))
            self._link = None
        self.depth -= 1
        if tag == "header":
            self.inside = False

    def handle_data(self, data):
        if self._link is not None:
            self._link[1] += data.strip()


def top_bar(page: Path) -> list[tuple]:
    parser = TopBar()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.links


def test_the_pages_are_found():
    assert {"index.html", "race.html", "replay.html", "rules.html", "stats.html"} <= {p.name for p in PAGES}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_page_has_the_same_top_bar(page):
    links = top_bar(page)
    assert links, f"{page.name} has no top bar"
    brand, *nav = links
    home = "#/" if page.name == "index.html" else "./"  # on the hub itself, home is its own route
    assert brand[:2] == (home, "Patience Arena") and brand[3] == "brand"
    assert [(href, text) for href, text, *_ in nav] == [(home if h == "./" else h, t) for h, t in NAV]
    current = [href for href, _, aria, _ in nav if aria == "page"]
    own = page.name if any(page.name == h for h, _ in NAV) else None
    assert current == ([own] if own else []), "only the page's own link, if it has one, is the current page"
