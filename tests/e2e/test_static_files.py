"""The client's files hang together without a browser: every module and stylesheet the page
loads exists, and every relative import names a file in the folder the gateway serves."""

from __future__ import annotations

import re


from web_client import STATIC_DIR

IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["'](\./[^"']+)["']""", re.M | re.S)


PAGES = {"index.html": "js/app.js", "leaderboard.html": "js/leaderboard.js", "stats.html": "js/stats.js",
         "replay.html": "js/replay.js", "race.html": "js/race.js", "rules.html": "js/rules.js", "404.html": "js/theme.js"}


def test_every_page_references_exist():
    """Each page loads its own module and the shared stylesheet; every file any page names exists."""
    pages = sorted(STATIC_DIR.glob("*.html"))
    assert set(PAGES) <= {page.name for page in pages}
    for page in pages:
        html = page.read_text()
        refs = re.findall(r"""(?:src|href)="([^"#:]+)\"""", html)
        assert "css/arena.css" in refs and PAGES.get(page.name, refs[-1]) in refs, page.name
        for ref in refs:
            ref = ref.split("?")[0]
            assert ref in ("./", "", "/") or (STATIC_DIR / ref).is_file(), f"{page.name} names {ref}, which does not exist"
        assert "js/theme.js" in refs, f"{page.name}: every page follows the chosen theme"


def test_every_game_has_a_rules_page_with_a_how_to_play():
    """rules/<game id>.html for every game of the catalogue, each with the short part the play page shows."""
    import engine

    for entry in engine.catalog().games:
        page = STATIC_DIR / "rules" / f"{entry.id}.html"
        assert page.is_file(), f"no rules page for {entry.id}"
        assert 'id="how-to-play"' in page.read_text(), f"{page.name} has no How to play part"


def test_every_relative_import_resolves():
    modules = sorted((STATIC_DIR / "js").glob("*.js"))
    assert len(modules) >= 7
    found = 0
    for module in modules:
        for target in IMPORT.findall(module.read_text()):
            found += 1
            assert (module.parent / target).is_file(), f"{module.name} imports {target}, which does not exist"
    assert found >= 10, "the import pattern no longer matches the modules' imports"


def test_the_client_holds_no_rules():
    """Legal moves come from view.legal only: no module compares ranks or suits to decide a move."""
    for module in (STATIC_DIR / "js").glob("*.js"):
        text = module.read_text()
        assert not re.search(r"\.rank\s*[-+]\s*1|rank\s*===\s*13|\.suit\s*===", text), module.name


def test_no_client_file_names_a_game():
    """Menus, titles and buttons come from GET /api/catalog: no module lists games or titles. A
    game id that is also a card's name (the Wizard card) may still name that card's artwork."""
    import engine
    from engine.cards import RANK_NAMES

    card_words = {name.lower() for name in RANK_NAMES.values()}
    sources = [*(STATIC_DIR / "js").glob("*.js"), *STATIC_DIR.glob("*.html")]
    for entry in engine.catalog().games:
        for source in sources:
            text = source.read_text()
            assert entry.title not in text, f"{source.name} names {entry.title!r}"
            if entry.id not in card_words:
                assert not re.search(rf"""["'`]{re.escape(entry.id)}["'`]""", text), f"{source.name} names {entry.id!r}"
