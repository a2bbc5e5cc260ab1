"""The tamper suite: every way a replay file can lie or attack its reader, each refused with its own code.

Each case edits a valid signed file (replay_documents.py) and names the code that must refuse it,
checked with the server's keys given (as `arena verify --keys` checks). Where an edit is "re-signed"
the tests' server key signs the edited file again: a cheater cannot, so such a case tests the
reader's or the log's own check, the one that still holds for a file the signature cannot help
with (a format 1 file, or a server defect). The others are what a cheater can really produce.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache

import pytest

from services.validator.replay_format import MAX_BYTES
from tests.support.replays import KEYRING, outcome_of
from tests.validator.replay_documents import (
    CHALLENGE, FORGER, Tree, daily_binding, edited, lost_as_dealt, moves, resign, resigned_spider, signed,
    unsigned_format_1, won_casual, won_daily, won_practice_with_hint,
)


@cache
def W() -> Tree:  # noqa: N802  the four files the cases edit, named short: W(on), D(aily), P(ractice), S(pider)
    return signed(won_casual())


@cache
def D() -> Tree:  # noqa: N802
    return signed(won_daily(), **daily_binding())


@cache
def P() -> Tree:  # noqa: N802
    return signed(won_practice_with_hint())


@cache
def S() -> Tree:  # noqa: N802
    return signed(resigned_spider())


def text(tree: Tree) -> str:
    return json.dumps(tree)


def raw(tree: Tree, old: str, new: str) -> bytes:
    """A textual edit (one the JSON tree cannot hold: a duplicate key, a fraction, NaN)."""
    source = text(tree)
    assert old in source, old
    return source.replace(old, new, 1).encode()


def header(**fields) -> Callable[[Tree], None]:
    return lambda t: t.update(fields)


def entry(index: int, **fields) -> Callable[[Tree], None]:
    return lambda t: t["entries"][index]["entry"].update(fields)


def both(**fields) -> Callable[[Tree], None]:
    """The header and entry 1 alike (so they agree with each other)."""
    def change(t: Tree) -> None:
        t.update(fields)
        t["entries"][0]["entry"].update(fields)
    return change


def links(**fields) -> Callable[[Tree], None]:
    def change(t: Tree) -> None:
        t["entries"][0]["entry"]["links"].update(fields)
        t.update(fields)
    return change


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


def first_move(t: Tree) -> dict:
    return t["entries"][moves(t)[0]]


def renumber(t: Tree) -> None:
    for n, item in enumerate(t["entries"], start=1):
        item["version"] = n


def restamp_first_look(t: Tree) -> None:
    """The cheat: the first look stamped as late as it can be (at the first move), the time cut to match."""
    late = first_move(t)["at_ms"]
    t["entries"][1]["at_ms"] = t["entries"][1]["entry"]["at_ms"] = late
    t["result"]["time_ms"] = t["entries"][-1]["at_ms"] - late


def swap(i: int, j: int) -> Callable[[Tree], None]:
    def change(t: Tree) -> None:
        e = t["entries"]
        e[i]["entry"], e[j]["entry"] = e[j]["entry"], e[i]["entry"]
    return change


def drop(index: int) -> Callable[[Tree], None]:
    def change(t: Tree) -> None:
        del t["entries"][index]
        renumber(t)
    return change


def repeat_move(t: Tree) -> None:
    i = moves(t)[0]
    t["entries"].insert(i + 1, json.loads(json.dumps(t["entries"][i])))
    renumber(t)


def set_in(path: tuple, value) -> Callable[[Tree], None]:
    def change(t: Tree) -> None:
        node = t
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def card_edit(t: Tree) -> None:
    item = first_move(t)["entry"]
    item["cards"] = item["cards"][::-1]


def pile(value) -> Callable[[Tree], None]:
    return lambda t: first_move(t)["entry"].update(piles=[value, first_move(t)["entry"]["piles"][1]])


def stamp(index: int, delta: int, inner: bool = False) -> Callable[[Tree], None]:
    def change(t: Tree) -> None:
        target = t["entries"][index]["entry"] if inner else t["entries"][index]
        key = "created_at_ms" if inner and index == 0 else "at_ms"
        target[key] += delta
    return change


def hint_index(t: Tree) -> int:
    return next(n for n, item in enumerate(t["entries"]) if item["entry"]["type"] == "hint_given")


def hint_edit(**fields) -> Callable[[Tree], None]:
    return lambda t: t["entries"][hint_index(t)]["entry"].update(fields)


def second_look(t: Tree) -> None:
    t["entries"].insert(2, json.loads(json.dumps(t["entries"][1])))
    renumber(t)


def look_after_move(t: Tree) -> None:
    look = t["entries"].pop(1)
    t["entries"].insert(2, look)
    renumber(t)
    t["entries"][1]["at_ms"], t["entries"][2]["at_ms"] = t["entries"][2]["at_ms"], t["entries"][1]["at_ms"]


def creation_second(t: Tree) -> None:
    t["entries"][0], t["entries"][1] = t["entries"][1], t["entries"][0]
    renumber(t)
    t["entries"][0]["at_ms"], t["entries"][1]["at_ms"] = t["entries"][1]["at_ms"], t["entries"][0]["at_ms"]


def signature_from(other: Callable[[], Tree]) -> Callable[[Tree], None]:
    return lambda t: t.update(signature=other()["signature"])


def strip_binding(t: Tree) -> None:
    t.update(salt=None, commitment=None)


def signature_field(**fields) -> Callable[[Tree], None]:
    return lambda t: t["signature"].update(fields)


def other_key_id(t: Tree) -> None:
    t["signature"]["key_id"] = "f" * 16


def e(tree: Callable[[], Tree], change: Callable[[Tree], None], **how: bool) -> Callable[[], bytes]:
    return lambda: edited(tree(), change, **how)


RS = {"digest": True, "sign": True}  # re-digested and re-signed: the log's own check must refuse it
RD = {"digest": True}  # re-digested only: what a cheater can do

CASES: dict[str, tuple[Callable[[], bytes], str]] = {
    # The reader: size, syntax, nesting, numbers.
    "an 80 MB file": (lambda: b" " * (80 * 1024 * 1024), "file_too_large"),
    "one byte over the size cap": (lambda: text(W()).encode().ljust(MAX_BYTES + 1), "file_too_large"),
    "truncated JSON": (lambda: text(W()).encode()[:-20], "not_json"),
    "not UTF-8": (lambda: b"\xff" + text(W()).encode(), "not_json"),
    "a variant nested 1,000 deep": (lambda: raw(W(), '"variant": {"mode": "standard"}',
                                                 '"variant": {"mode": ' + "[" * 1000 + "1" + "]" * 1000 + "}"), "too_deep"),
    "an entry nested 9 deep": (e(W, entry(2, cards=nested(7))), "too_deep"),
    "brackets inside a string are not nesting": (e(W, header(game_id="[" * 50)), "bad_field"),
    "a key twice at the top": (lambda: raw(W(), '"seed": ', '"seed": 1, "seed": '), "duplicate_key"),
    "a key twice inside an entry": (lambda: raw(W(), '"piles": ', '"piles": [0, 1], "piles": '), "duplicate_key"),
    "a fraction for an integer": (lambda: raw(W(), f'"seed": {W()["seed"]}', f'"seed": {W()["seed"]}.0'), "bad_number"),
    "an exponent": (lambda: raw(W(), '"deal_version": 1', '"deal_version": 1e0'), "bad_number"),
    "NaN": (lambda: raw(W(), '"deal_version": 1', '"deal_version": NaN'), "bad_number"),
    "Infinity": (lambda: raw(W(), '"deal_version": 1', '"deal_version": Infinity'), "bad_number"),
    "an integer of 2**64 in an entry": (e(W, pile(2**64)), "bad_number"),
    "an integer of 10,000 digits": (lambda: raw(W(), '"deal_version": 1', '"deal_version": ' + "9" * 10_000), "bad_number"),
    "a negative pile": (e(W, pile(-1)), "bad_number"),
    "format 0": (e(W, header(format=0)), "unknown_format"),
    "format 99": (e(W, header(format=99)), "unknown_format"),
    "format -1": (e(W, header(format=-1)), "bad_number"),
    "format as text": (e(W, header(format="2")), "unknown_format"),
    "format true": (e(W, header(format=True)), "unknown_format"),
    "no format": (e(W, lambda t: t.pop("format")), "unknown_format"),
    "an array, not an object": (lambda: b"[1, 2]", "bad_field"),
    # The schema: types, fields, bounds.
    "an unknown field at the top": (e(W, header(note="hi")), "bad_field"),
    "an unknown field in the result": (e(W, set_in(("result", "rank"), 1)), "bad_field"),
    "an unknown field in an entry": (e(W, entry(2, extra=1)), "not_canonical"),
    "an unknown field in links": (e(W, lambda t: t["entries"][0]["entry"]["links"].update(ghost2="x")), "not_canonical"),
    "an unknown field in the signature": (e(W, signature_field(note="x")), "bad_field"),
    "no digest": (e(W, lambda t: t.pop("digest")), "bad_field"),
    "a null field left out": (e(W, lambda t: t.pop("challenge")), "not_canonical"),
    "the seed as text": (e(W, header(seed="3")), "bad_field"),
    "true for 1 in a pile": (e(W, pile(True)), "bad_field"),
    "true for 1 in a variant": (e(S, header(variant={"suits": True})), "bad_field"),
    "a variant without its default": (e(W, header(variant={})), "not_canonical"),
    "a variant with a field it has not": (e(W, header(variant={"mode": "standard", "jokers": 2})), "bad_field"),
    "a variant holding an object": (e(W, header(variant={"mode": {"x": 1}})), "bad_field"),
    "an empty status": (e(W, set_in(("result", "status"), "")), "bad_field"),
    "status resigned": (e(W, set_in(("result", "status"), "resigned")), "bad_field"),
    "a game id of 2 MB": (e(W, header(game_id="a" * 2_000_000)), "bad_field"),
    "a game id with a space": (e(W, header(game_id="0123 4567")), "bad_field"),
    "a player id of 1,000 characters": (e(W, both(player_id="g_" + "x" * 998)), "bad_field"),
    "an unknown game": (e(W, header(game="chess")), "bad_field"),
    "an unknown kind": (e(W, header(kind="ranked")), "bad_field"),
    "a digest in capitals": (e(W, lambda t: t.update(digest=t["digest"].upper())), "bad_field"),
    "a salt that is not hex": (e(D, header(salt="zz" * 16)), "bad_field"),
    "a commitment too short": (e(D, header(commitment="ab" * 8)), "bad_field"),
    "a signature by RSA": (e(W, signature_field(algorithm="RSA")), "bad_field"),
    "a signature too short": (e(W, signature_field(value="AAAA")), "bad_field"),
    "format 2 without its signature": (e(W, header(signature=None)), "unsigned"),
    "format 1 with a signature": (e(W, header(format=1)), "bad_field"),
    # The result, whole.
    "a won log claiming lost": (e(W, set_in(("result", "status"), "lost"), sign=True), "wrong_result"),
    "a won log claiming abandoned": (e(W, set_in(("result", "status"), "abandoned"), sign=True), "wrong_result"),
    "a won log claiming in_progress": (e(W, set_in(("result", "status"), "in_progress"), sign=True), "wrong_result"),
    "a move count off by one": (e(W, lambda t: t["result"].update(moves=t["result"]["moves"] - 1), sign=True), "wrong_move_count"),
    "a shorter time": (e(W, lambda t: t["result"].update(time_ms=t["result"]["time_ms"] - 1), sign=True), "wrong_time"),
    "no time on a game that was shown": (e(W, set_in(("result", "time_ms"), None), sign=True), "wrong_time"),
    "a deal lost as dealt with time null": (lambda: edited(signed(lost_as_dealt()), set_in(("result", "time_ms"), None), sign=True), "wrong_time"),
    # The header against the log, and the links.
    "the header's kind only": (e(W, header(kind="practice"), sign=True), "tampered_file"),
    "the header's seed only": (e(W, header(seed=W()["seed"] + 1), sign=True), "tampered_file"),
    "the header's variant only": (e(W, header(variant={"mode": "open"}), sign=True), "tampered_file"),
    "a casual win claiming a daily's key in its header": (e(W, header(challenge=CHALLENGE), sign=True), "tampered_file"),
    "a casual win claiming a daily's key in its log": (e(W, links(challenge=CHALLENGE), **RS), "wrong_links"),
    "a casual game claiming a race": (e(W, links(race="r1234"), **RS), "wrong_links"),
    "a daily naming no challenge": (e(W, both(kind="daily"), **RS), "wrong_links"),
    "a ranked daily without its salt and commitment": (e(D, strip_binding, sign=True), "missing_commitment"),
    "a commitment without its salt": (e(D, header(salt=None), sign=True), "commitment_mismatch"),
    "a commitment binding another seed": (e(D, header(commitment=daily_binding(D()["seed"] + 1)["commitment"]), sign=True), "commitment_mismatch"),
    "a commitment claimed for another day": (e(D, links(challenge="2026-12-02/wish/mode=standard"), **RS), "commitment_mismatch"),
    "a practice game's salt on a casual game": (e(W, header(**daily_binding()), sign=True), "commitment_mismatch"),
    # The entries: digest, legality, numbering, order.
    "the digest edited": (e(W, lambda t: t.update(digest="0" * 64), sign=True), "tampered_file"),
    "a card edited, the digest kept": (e(W, card_edit, sign=True), "tampered_file"),
    "a card edited and re-digested": (e(W, card_edit, **RS), "illegal_event"),
    "the last move dropped": (e(W, drop(-1), **RS), "wrong_result"),
    "a move played twice": (e(W, repeat_move, **RS), "illegal_event"),
    "versions with a gap": (e(W, lambda t: t["entries"][-1].update(version=99), **RS), "tampered_file"),
    "versions out of order": (e(W, lambda t: t["entries"].reverse(), **RS), "tampered_file"),
    "an unknown deal version": (e(W, both(deal_version=2), **RS), "unknown_deal_version"),
    # Every time stamp.
    "a stored time running backwards": (e(W, stamp(5, -5000), **RS), "time_backwards"),
    "the creation stamped after it was stored": (e(W, stamp(0, 50, inner=True), **RS), "time_backwards"),
    "the first look before the creation": (e(W, stamp(1, -200, inner=True), **RS), "time_backwards"),
    "the first look after it was stored": (e(W, stamp(1, 50, inner=True), **RS), "time_backwards"),
    "a hint before the first look": (e(P, hint_edit(at_ms=P()["entries"][1]["entry"]["at_ms"] - 1), **RS), "time_backwards"),
    "a hint stamped after it was stored": (e(P, lambda t: hint_edit(at_ms=t["entries"][hint_index(t)]["at_ms"] + 1)(t), **RS), "time_backwards"),
    # The log's own shape.
    "a hint in a casual game": (e(P, both(kind="casual"), **RS), "bad_log"),
    "a hint naming another position": (e(P, hint_edit(version=0), **RS), "bad_log"),
    "a second first look": (e(W, second_look, **RS), "bad_log"),
    "the first look after a move": (e(W, look_after_move, **RS), "bad_log"),
    "the creation not first": (e(W, creation_second, **RS), "bad_log"),
    "never shown": (e(W, lambda t: (drop(1)(t), t["result"].update(time_ms=None)), **RS), "never_shown"),
    # The signature: what only the server's key can make.
    "the signature altered": (e(W, lambda t: signature_field(value=("B" if t["signature"]["value"][0] == "A" else "A")
                                                                  + t["signature"]["value"][1:])(t)), "bad_signature"),
    "a key id the server never used": (e(W, other_key_id), "unknown_key"),
    "the first look re-stamped and re-digested": (e(W, restamp_first_look, **RD), "bad_signature"),
    "re-stamped, re-digested and signed with the cheater's own key":
        (lambda: json.dumps(resign(json.loads(edited(W(), restamp_first_look, **RD)), FORGER)).encode(), "unknown_key"),
    "another player's name on the win": (e(W, both(player_id="g_thief"), **RD), "bad_signature"),
    "another game id (not in the digest)": (e(W, header(game_id="fedcba9876543210")), "bad_signature"),
    "a daily's salt and commitment stripped": (e(D, strip_binding), "bad_signature"),
    "another file's signature": (e(W, signature_from(D)), "bad_signature"),
    "two moves swapped": (e(W, swap(moves(W())[0], moves(W())[1]), **RD), "bad_signature"),
    "a forged first look, format 1 (no signature to refuse it)": (
        lambda: edited(unsigned_format_1(won_casual()), stamp(1, -200, inner=True), digest=True), "time_backwards"),
}


def test_the_suite_covers_at_least_sixty_categories():
    assert len(CASES) >= 60


@pytest.mark.parametrize("name", list(CASES))
def test_each_tampered_file_is_refused_with_its_code(name):
    make, expected = CASES[name]
    assert outcome_of(make(), KEYRING) == expected


@pytest.mark.parametrize("tree", [W, D, P], ids=["casual", "daily", "practice with a hint"])
def test_the_untouched_files_verify_with_the_servers_keys(tree):
    assert outcome_of(text(tree()).encode(), KEYRING) == "verified"
