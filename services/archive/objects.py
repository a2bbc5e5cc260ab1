"""The archive's object store: one small interface, on obstore (the Rust `object_store` crate's binding).

Finished games leave Valkey's memory for an object store that scales without limit. The archive needs
four things of it and no more: put an object whole, get it whole, ask whether it is there, delete it.
obstore gives one async API over a local folder, S3 and S3-compatible stores (MinIO, R2, Ceph), GCS and
Azure, chosen by `ARENA_ARCHIVE_URL`:

- unset: `file://<data dir>/archive` (`make serve` needs nothing new);
- `s3://bucket/prefix`: S3's endpoint and credentials from the usual variables (`AWS_ENDPOINT_URL`,
  `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_REGION`, ...), read by obstore itself; an `http://`
  endpoint (a local MinIO, a test's moto) is allowed when the endpoint says so;
- `gs://`, `az://`, `memory:///` as obstore reads them.

Errors are values: every call answers its result or an `ObjectFault` with a code (`missing`,
`unreachable`) and a message, never an exception, so the archiver can back off and the readers can
answer `unavailable` without a try around each call. Calls are bounded in time (`timeout_s`): a slow
store is a fault too, not a request hanging on.
"""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta
from pathlib import Path
from typing import Any, Protocol

import obstore
from msgspec import Struct
from obstore.store import LocalStore, from_url

MISSING = "missing"  # no object under that key
UNREACHABLE = "unreachable"  # the store did not answer, or answered with an error, in time


class ObjectFault(Struct, frozen=True):
    code: str
    message: str


class ObjectStore(Protocol):
    """What the archive asks of a store; keys are `/`-separated relative paths."""

    url: str

    async def put(self, key: str, data: bytes) -> ObjectFault | None: ...

    async def get(self, key: str) -> bytes | ObjectFault: ...

    async def size(self, key: str) -> int | ObjectFault: ...

    async def delete(self, key: str) -> ObjectFault | None: ...


class ObstoreObjects:
    """An ObjectStore on any obstore store; `timeout_s` bounds each call (its retries included)."""

    def __init__(self, store, url: str, *, timeout_s: float = 10.0) -> None:
        self.store, self.url, self.timeout_s = store, url, timeout_s

    async def put(self, key: str, data: bytes) -> ObjectFault | None:
        # Overwrite, not create: a put is idempotent by its key (a game id and its log's digest), so an
        # archiver that died after its put and puts again writes the very same bytes.
        outcome = await self._call(obstore.put_async(self.store, key, data, mode="overwrite"), key)
        return outcome if isinstance(outcome, ObjectFault) else None

    async def get(self, key: str) -> bytes | ObjectFault:
        async def whole() -> bytes:
            result = await obstore.get_async(self.store, key)
            return bytes(await result.bytes_async())

        return await self._call(whole(), key)

    async def size(self, key: str) -> int | ObjectFault:
        async def head() -> int:
            return int((await obstore.head_async(self.store, key))["size"])

        return await self._call(head(), key)

    async def delete(self, key: str) -> ObjectFault | None:
        outcome = await self._call(obstore.delete_async(self.store, key), key)
        return outcome if isinstance(outcome, ObjectFault) else None

    async def _call(self, pending, key: str):
        try:
            return await asyncio.wait_for(pending, self.timeout_s)
        except FileNotFoundError as exc:  # obstore's NotFoundError is one
            return ObjectFault(MISSING, f"no archived object {key!r}: {_first_line(exc)}")
        except TimeoutError:
            return ObjectFault(UNREACHABLE, f"the archive at {self.url} did not answer within {self.timeout_s:g} s")
        except Exception as exc:  # noqa: BLE001  obstore's errors (connection, auth, 5xx) all mean: not now
            return ObjectFault(UNREACHABLE, f"the archive at {self.url} failed on {key!r}: {_first_line(exc)}")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"


def default_archive_url(data_dir: Path) -> str:
    return (Path(data_dir).resolve() / "archive").as_uri()


def open_objects(url: str, *, timeout_s: float = 10.0, retries: int = 2) -> ObstoreObjects:
    """The store a URL names. A local folder is made when missing; S3 reads its endpoint and
    credentials from the environment, and may speak plain HTTP when its endpoint is an http:// URL."""
    retry = {"max_retries": retries, "retry_timeout": timedelta(seconds=timeout_s),
             "backoff": {"init_backoff": timedelta(milliseconds=50), "max_backoff": timedelta(seconds=1), "base": 2}}
    client: dict[str, Any] = {"timeout": timedelta(seconds=timeout_s), "connect_timeout": timedelta(seconds=min(timeout_s, 2.0))}  # Any: JSON
    if url.startswith("file://"):
        folder = Path(url[len("file://"):])
        folder.mkdir(parents=True, exist_ok=True)
        return ObstoreObjects(LocalStore(str(folder), mkdir=True), url, timeout_s=timeout_s)
    if url.startswith(("s3://", "s3a://")):
        endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL") or ""
        client["allow_http"] = endpoint.startswith("http://")  # a local MinIO or a test's moto
    store = from_url(url, client_options=client, retry_config=retry)  # type: ignore[call-overload]  # obstore's overloads name each backend's options; this URL's backend is known only at run time
    return ObstoreObjects(store, url, timeout_s=timeout_s)
