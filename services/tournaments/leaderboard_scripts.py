"""The leaderboard's Lua scripts: each runs on one challenge's keys (one hash tag, one cluster slot).

A script runs without any other command between its steps, so a status change, its counters and the
board stay in step even with many gateway processes writing at once.
"""

from __future__ import annotations

# Reply {code, previous status}: 0 refused (previous status not allowed), 1 already in that status
# (nothing written: a projection replaying an event is harmless), 2 changed, 3 the board is final.
# KEYS: status hash, entries hash, counts hash, board zset.
# ARGV: player, allowed previous statuses (space separated, '-' = none yet), new status,
#       entry bytes or '', member to add to the board or '', member to remove or ''.
TRANSITION_LUA = """
if redis.call('HEXISTS', KEYS[3], 'final') == 1 then return {3, ''} end
local current = redis.call('HGET', KEYS[1], ARGV[1]) or '-'
if current == ARGV[3] then return {1, current} end
local allowed = false
for status in string.gmatch(ARGV[2], '%S+') do
  if status == current then allowed = true end
end
if not allowed then return {0, current} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
if current ~= '-' then redis.call('HINCRBY', KEYS[3], current, -1) end
redis.call('HINCRBY', KEYS[3], ARGV[3], 1)
if ARGV[4] ~= '' then redis.call('HSET', KEYS[2], ARGV[1], ARGV[4]) end
if ARGV[5] ~= '' then redis.call('ZADD', KEYS[4], 0, ARGV[5]) end
if ARGV[6] ~= '' then redis.call('ZREM', KEYS[4], ARGV[6]) end
return {2, current}
"""

# Reply {total, better, members, entries, final}: `better` counts the members strictly better than
# the page's first one (so ties across the page edge share a rank); entries are the hash's values for
# the members' players, in the same order; final is 1 once the board is final.
# KEYS: board zset, entries hash, counts hash. ARGV: offset, limit, length of a member's ranking prefix.
PAGE_LUA = """
local offset, limit, prefix = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local total = redis.call('ZCARD', KEYS[1])
local final = redis.call('HEXISTS', KEYS[3], 'final')
local members = redis.call('ZRANGE', KEYS[1], offset, offset + limit - 1)
if #members == 0 then return {total, 0, {}, {}, final} end
local players = {}
for i, member in ipairs(members) do players[i] = string.sub(member, prefix + 2) end
local entries = redis.call('HMGET', KEYS[2], unpack(players))
local better = redis.call('ZLEXCOUNT', KEYS[1], '-', '(' .. string.sub(members[1], 1, prefix))
return {total, better, members, entries, final}
"""

# Reply {0, playing, pending} refused while attempts run or wins await the verifier; 1 already final;
# 2 made final. KEYS: counts hash. ARGV: the time it became final (ms).
FINALIZE_LUA = """
if redis.call('HEXISTS', KEYS[1], 'final') == 1 then return {1, 0, 0} end
local playing = tonumber(redis.call('HGET', KEYS[1], 'playing') or '0')
  + tonumber(redis.call('HGET', KEYS[1], 'guest_playing') or '0')
local pending = tonumber(redis.call('HGET', KEYS[1], 'pending') or '0')
if playing > 0 or pending > 0 then return {0, playing, pending} end
redis.call('HSET', KEYS[1], 'final', ARGV[1])
return {2, 0, 0}
"""
