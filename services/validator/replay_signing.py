"""The server's signature on replay files: Ed25519 over the document's canonical bytes, and the keys to check it.

The digest proves the entries are the server's log only to someone who asks the server for its
digest: anyone can recompute a SHA-256, so a file whose first look was re-stamped for a faster time
and re-digested would pass. A signature cannot be recomputed without the server's private key: a
file that verifies against a key the server lists is the file the server wrote, every byte of it.

The private key is derived from a secret made once in the data folder (`replay-signing-secret`,
or ARENA_REPLAY_SIGNING_SECRET): every server process of one deployment shares it, as it shares the
token secret. A key's id is the first 16 hex digits of SHA-256 of its raw public key. Rotation is a
new secret: files signed since carry the new key id, and the old public key stays listed
(replay_keyring.py keeps every key a server has signed with), so files signed before still check.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from pathlib import Path

import msgspec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from msgspec import Struct

from .replay_format import ALGORITHM, FORMAT_SIGNED, ReplayFile, ReplaySignature, signed_bytes

SECRET_NAME = "replay-signing-secret"
KEY_LABEL = b"patience-arena/replay-signing-key/v1"

BAD_SIGNATURE = "bad_signature"
UNKNOWN_KEY = "unknown_key"


class PublicKey(Struct, frozen=True, forbid_unknown_fields=True):
    """One key as GET /api/replay-keys and `arena keys` list it."""

    key_id: str
    algorithm: str
    public_key: str  # the raw 32 bytes, base64url without padding
    since_ms: int | None = None  # when a server first signed with it (None: not yet recorded)


class KeyList(Struct, frozen=True, forbid_unknown_fields=True):
    """The keys document: every key the server has signed replay files with, `current` the one in use."""

    current: str | None
    keys: list[PublicKey]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def key_id_of(public_raw: bytes) -> str:
    return hashlib.sha256(public_raw).hexdigest()[:16]


class ReplaySigner:
    """Signs replay files with the key derived from one secret."""

    def __init__(self, secret: bytes) -> None:
        seed = hmac.new(secret, KEY_LABEL, hashlib.sha256).digest()
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        raw = self._key.public_key().public_bytes_raw()
        self.public = PublicKey(key_id_of(raw), ALGORITHM, _b64(raw))

    @property
    def key_id(self) -> str:
        return self.public.key_id

    def sign(self, file: ReplayFile) -> ReplayFile:
        """The file as format 2, signed: the signature covers every other byte of the document."""
        unsigned = msgspec.structs.replace(file, format=FORMAT_SIGNED, signature=None)
        value = self._key.sign(signed_bytes(unsigned))
        return msgspec.structs.replace(unsigned, signature=ReplaySignature(ALGORITHM, self.key_id, _b64(value)))


def signer_from(configured: str | None, data_dir: Path) -> ReplaySigner:
    """The deployment's signer: ARENA_REPLAY_SIGNING_SECRET, else the secret made once in data_dir."""
    from ..identity.tokens import load_or_create_secret

    return ReplaySigner(load_or_create_secret(configured, data_dir, name=SECRET_NAME))


class Keyring:
    """Public keys by id, to check signatures with (a keys document, from a file or a server)."""

    def __init__(self, keys: list[PublicKey]) -> None:
        self._keys: dict[str, Ed25519PublicKey] = {}
        for key in keys:
            if key.algorithm == ALGORITHM:
                raw = _unb64(key.public_key)
                if key_id_of(raw) == key.key_id:  # an id is its key's: a listed id cannot name another key
                    self._keys[key.key_id] = Ed25519PublicKey.from_public_bytes(raw)

    @classmethod
    def from_document(cls, data: bytes) -> Keyring:
        """A keyring from a keys document (GET /api/replay-keys, `arena keys`); ValueError if it is not one."""
        try:
            return cls(msgspec.json.decode(data, type=KeyList).keys)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as exc:
            raise ValueError(f"not a keys document (GET /api/replay-keys): {exc}") from None

    def __len__(self) -> int:
        return len(self._keys)

    def problem(self, file: ReplayFile) -> tuple[str, str] | None:
        """(code, message) when the file's signature does not check; None when it does."""
        signature = file.signature
        assert signature is not None, "only a signed file has a signature to check"
        key = self._keys.get(signature.key_id)
        if key is None:
            return UNKNOWN_KEY, f"signed with key {signature.key_id}, which the keys given do not list"
        try:
            key.verify(_unb64(signature.value), signed_bytes(file))
        except (InvalidSignature, ValueError):
            return BAD_SIGNATURE, (f"the signature of key {signature.key_id} does not match the document: "
                                   "a byte was changed after the server signed it")
        return None
