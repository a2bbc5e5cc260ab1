"""The Lua script that makes one append atomic: idempotency check, version check, XADDs, move record.

Redis runs a script without interleaving any other command, so two writers at the same expected version
cannot both pass the check. Reply: {status, version, watchers} with status 0 = appended (version = new
version), 1 = duplicate move id (version = the one stored then; nothing written), 2 = conflict (version =
actual; nothing written).

`watchers`: how many connections subscribe the channel named in ARGV[3] (classic and shard subscriptions
both), counted in the same atomic step as the write; -1 for not counted: no channel named, a conflict, or
a count Redis refused (a user denied @pubsub, say), which must not fail an append that already wrote. The gateway's fan-out publishes
an update only where another process listens; counted here, a subscriber it misses subscribed after the
move was stored, so its snapshot shows the move (services/gateway/links/fanout.py), and a move at a
trickle needs no round trip of its own to ask.

The current version is XLEN: entry ids are 0-1, 0-2, ... and the log is never trimmed or deleted from,
so the length IS the last version. Should that ever be false, the explicit-id XADD fails ("ID equal or
smaller than the target stream top item") before writing anything, instead of forking the history.
Envelopes are encoded by the caller (which knows the versions they will get), so the script does no
encoding. Redis < 7 keeps the writes a script made before a runtime error, so every check comes first.
"""

from __future__ import annotations

import hashlib

APPENDED, DUPLICATE, CONFLICT = 0, 1, 2

# KEYS[1] = log stream, KEYS[2] = moves hash (same hash tag -> same slot)
# ARGV[1] = expected version, ARGV[2] = move id or "" for none, ARGV[3] = channel whose subscribers to count
# or "" for none, ARGV[4..] = encoded envelopes
APPEND_LUA = """
local function subscribers(kind)
  local reply = redis.pcall('PUBSUB', kind, ARGV[3])
  if reply.err then return nil end
  return reply[2]
end
local function watchers()
  if ARGV[3] == '' then return -1 end
  local classic, shard = subscribers('NUMSUB'), subscribers('SHARDNUMSUB')
  if classic == nil or shard == nil then return -1 end
  return classic + shard
end
local move_id = ARGV[2]
if move_id ~= '' then
  local stored = redis.call('HGET', KEYS[2], move_id)
  if stored then return {1, tonumber(stored), watchers()} end
end
local current = redis.call('XLEN', KEYS[1])
if current ~= tonumber(ARGV[1]) then return {2, current, -1} end
local version = current
for i = 4, #ARGV do
  version = version + 1
  redis.call('XADD', KEYS[1], '0-' .. string.format('%d', version), 'e', ARGV[i])
end
if move_id ~= '' then redis.call('HSET', KEYS[2], move_id, version) end
return {0, version, watchers()}
"""

APPEND_SHA = hashlib.sha1(APPEND_LUA.encode()).hexdigest()
