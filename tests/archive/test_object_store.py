"""The archive's ObjectStore contract, the same on a local folder, a moto S3 server and MinIO."""

from __future__ import annotations

import os
import time


from services.archive.objects import MISSING, UNREACHABLE, ObjectFault, default_archive_url, open_objects


async def test_put_get_size_delete_round_trip(objects):
    key = "games/ab/abcdef/0123.replay.zst"
    data = bytes(range(256)) * 40
    assert await objects.put(key, data) is None
    assert await objects.get(key) == data
    assert await objects.size(key) == len(data)
    assert await objects.put(key, data) is None, "a put is idempotent: the same key and bytes again"
    assert await objects.get(key) == data
    assert await objects.delete(key) is None
    gone = await objects.get(key)
    assert isinstance(gone, ObjectFault) and gone.code == MISSING


async def test_a_missing_object_is_a_fault_value_not_an_exception(objects):
    for answer in (await objects.get("games/no/such.replay.zst"), await objects.size("games/no/such.replay.zst")):
        assert isinstance(answer, ObjectFault) and answer.code == MISSING, answer


async def test_keys_do_not_collide_and_empty_objects_survive(objects):
    assert await objects.put("a/b", b"first") is None
    assert await objects.put("a/bc", b"") is None
    assert await objects.get("a/b") == b"first"
    assert await objects.get("a/bc") == b""


async def test_a_store_that_is_not_there_answers_unreachable_in_bounded_time(monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # discard port: nothing listens
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "x")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "y")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    away = open_objects("s3://nowhere/arena", timeout_s=1.0)
    started = time.monotonic()
    for answer in (await away.put("k", b"v"), await away.get("k")):
        assert isinstance(answer, ObjectFault) and answer.code == UNREACHABLE, answer
    assert time.monotonic() - started < 5


def test_the_default_archive_is_a_folder_in_the_data_dir(tmp_path):
    url = default_archive_url(tmp_path / "data")
    assert url == (tmp_path / "data" / "archive").resolve().as_uri()
    open_objects(url)
    assert os.path.isdir(tmp_path / "data" / "archive"), "made on first use: `make serve` needs no set-up"
