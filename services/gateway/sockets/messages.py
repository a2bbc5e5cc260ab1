"""Websocket frames, named by direction: ``c2s.*`` client to server, ``s2c.*`` server to client.

Client frames are decoded strictly (unknown fields and wrong types are refused) into one tagged
union, so the socket handler never looks inside a frame by hand. `move` is an engine intent; the
engine, not this module, decides whether it is legal.
"""

from __future__ import annotations

from typing import Annotated, Any, Union

import msgspec
from msgspec import Meta, Struct

from engine import AnyIntent

from ...games.model import GameSummary, Snapshot
from ...games.view_delta import SnapshotDelta

MoveId = Annotated[str, Meta(min_length=1, max_length=64)]
Version = Annotated[int, Meta(ge=0)]


# A socket's close codes, part of the protocol (docs/protocol.md), shared by every socket kind and by auth.
CLOSE_UNAUTHORIZED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404

class C2S(Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every client frame."""


class MoveC2S(C2S, tag="c2s.move", frozen=True):
    move_id: MoveId
    version: Version
    move: AnyIntent


class SyncC2S(C2S, tag="c2s.sync", frozen=True):
    version: Version


class PingC2S(C2S, tag="c2s.ping", frozen=True):
    pass


class NewGameC2S(C2S, tag="c2s.new_game", frozen=True):
    """A new casual game (a practice game on a named `seed`) for this socket's player, as POST /api/games
    makes, and this socket moves to it: no HTTP request, ticket or handshake for a player's next game.
    `request_id` is the client's, as a move's id: the same one sent again on this socket makes no second
    game (a double click, a retry after `unavailable`)."""

    request_id: MoveId
    game: Annotated[str, Meta(min_length=1, max_length=64)]
    variant: dict[str, Any] | None = None  # Any: a variant's JSON values (the engine checks them); None: the default
    seed: int | None = None  # None: the server picks the deal


AnyC2S = Union[MoveC2S, SyncC2S, PingC2S, NewGameC2S]


class S2C(Struct, frozen=True, tag_field="type"):
    """Base of every server frame."""


class SnapshotS2C(S2C, tag="s2c.snapshot", frozen=True):
    """On connect and after every c2s.sync: the game now, and whether this socket plays or watches."""

    role: str  # player | spectator
    snapshot: Snapshot  # the game service's, as it is: version, view, time, and the deal once ended


class NewGameS2C(S2C, tag="s2c.new_game", frozen=True):
    """The game a c2s.new_game made: its summary (what POST /api/games answers, without a ticket) and its
    first snapshot. From this frame on the socket shows this game only; nothing more of the one before."""

    request_id: str
    summary: GameSummary
    role: str  # player: a socket's own new game is always its player's
    snapshot: Snapshot


class UpdateS2C(S2C, tag="s2c.update", frozen=True, omit_defaults=True):
    """After every accepted move, to every socket of the game but the mover's (its acceptance carries it):
    the game after the move as a `delta` against the version before (view_delta.py), or as a whole
    `snapshot` where a delta will not do (an end, every FULL_EVERY versions). A client whose version is not
    the delta's base asks for the whole with c2s.sync."""

    snapshot: Snapshot | None = None
    delta: SnapshotDelta | None = None


class AcceptedS2C(S2C, tag="s2c.accepted", frozen=True, omit_defaults=True):
    """The move is stored. `delta` or `snapshot` is the game after it, for the socket that sent the move:
    one frame per move instead of an acceptance and an update. Neither when this socket has shown that
    version already (a retry of a move it showed)."""

    move_id: str
    version: int
    snapshot: Snapshot | None = None
    delta: SnapshotDelta | None = None


class RejectedS2C(S2C, tag="s2c.rejected", frozen=True):
    move_id: str
    version: int
    code: str
    message: str


class ErrorS2C(S2C, tag="s2c.error", frozen=True, omit_defaults=True):
    code: str
    message: str
    request_id: str | None = None  # the c2s.new_game it refuses (frames refused before they are read carry none)


class PongS2C(S2C, tag="s2c.pong", frozen=True):
    pass


class BoardS2C(S2C, tag="s2c.board", frozen=True):
    """A daily challenge's leaderboard changed (an attempt started or ended, a win verified or removed,
    the board made final): its counts at `version`; read the page again over HTTP."""

    challenge: str
    version: int
    counts: Any  # Any: a board's counts as the tournaments encode them (JSON)


AnyS2C = Union[SnapshotS2C, NewGameS2C, UpdateS2C, AcceptedS2C, RejectedS2C, ErrorS2C, PongS2C, BoardS2C]

_decoder = msgspec.json.Decoder(AnyC2S)
_encoder = msgspec.json.Encoder()


def decode_c2s(data: bytes | str) -> AnyC2S | ErrorS2C:
    """A client frame, or the s2c.error that explains why it is not one."""
    try:
        return _decoder.decode(data)
    except msgspec.ValidationError as exc:
        return ErrorS2C("bad_frame", f"not a valid client frame: {exc}")
    except msgspec.DecodeError as exc:
        return ErrorS2C("bad_json", f"the frame is not JSON: {exc}")


def encode_s2c(frame: S2C) -> bytes:
    return _encoder.encode(frame)


def encode_once(shown: Snapshot | SnapshotDelta) -> msgspec.Raw:
    """A snapshot or delta encoded once, to be placed in several frames (the mover's acceptance, everyone
    else's update): msgspec writes a Raw field's bytes as they are, so a version is encoded once."""
    return msgspec.Raw(_encoder.encode(shown))


# Every server frame decoded back (the tests and the bench read frames with it).
s2c_decoder = msgspec.json.Decoder(AnyS2C)
