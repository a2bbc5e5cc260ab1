"""The young collector: the youngest generation collected on a clock (services/runtime/young_collector.py), the
older ones by CPython's own counting rule, and nothing at all when it is off."""

from __future__ import annotations

import asyncio
import gc

import pytest

from services.runtime.settings import settings_from_environment
from services.runtime.young_collector import YoungCollector, generation_due


@pytest.fixture
def no_automatic_collections():
    """CPython's own trigger out of the way, so only the collector under test collects."""
    before = gc.get_threshold()
    gc.collect()
    gc.set_threshold(10**9, 3, 2)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def _young_tuple() -> tuple:
    made = tuple([1, 2, 3])  # built at run time: tracked until a collection first looks at it
    assert gc.is_tracked(made)
    return made


async def test_a_young_object_is_looked_at_within_a_tick_though_the_count_never_passes_its_threshold(
        no_automatic_collections):
    collector = YoungCollector(0.01)
    waiting = _young_tuple()
    collector.start()
    try:
        for _ in range(200):
            await asyncio.sleep(0.01)
            if not gc.is_tracked(waiting) and collector.collections[0] >= 1:
                break  # (both: under a busy suite another collection may get to the tuple first)
        assert not gc.is_tracked(waiting), "no collection looked at the young tuple"
        assert collector.collections[0] >= 1
    finally:
        await collector.stop()


async def test_off_it_collects_nothing(no_automatic_collections):
    """Off, it starts no task and makes no collection. The young tuple stays tracked unless a collection
    of someone else's ran meanwhile (the suite shares one event loop: a server another test left running
    has a collector of its own), which the collector's own count tells apart."""
    seen: list[str] = []
    gc.callbacks.append(on_collection := lambda phase, info: seen.append(phase))
    try:
        collector = YoungCollector(0)
        waiting = _young_tuple()
        collector.start()
        await asyncio.sleep(0.05)
        assert collector._task is None and collector.collections == [0, 0, 0]
        assert gc.is_tracked(waiting) or seen, "the young tuple was untracked with no collection seen"
        await collector.stop()
    finally:
        gc.callbacks.remove(on_collection)


def test_the_older_generations_follow_cpythons_counts(no_automatic_collections):
    assert generation_due() == 0
    for _ in range(4):  # a middle collection is due once young ones pass threshold 1 (3 here)
        gc.collect(0)
    assert generation_due() == 1
    for _ in range(3):  # and a full one once middle ones pass threshold 2 (2 here)
        gc.collect(1)
        for _ in range(4):
            gc.collect(0)
    assert generation_due() == 2
    gc.collect(2)
    assert generation_due() == 0


def test_the_tick_is_a_setting():
    assert settings_from_environment({}).gc_young_ms == 100
    assert settings_from_environment({"ARENA_GC_YOUNG_MS": "0"}).gc_young_ms == 0
    with pytest.raises(SystemExit):
        settings_from_environment({"ARENA_GC_YOUNG_MS": "-5"})
