-- Passes a held lock on to another holder in the same client without letting it go, unless
-- another client waits: then it is released and handed to the oldest live queued waiter exactly
-- as release.lua does. A pass issues a fresh fencing token and reserves the next ARGV[3] - 1
-- tokens for passes the client makes on its own, without a round trip (docs/waiting.md: relay).
-- KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] queue (zset)   KEYS[4] queue entries (hash)
-- ARGV[1] owner id of the hold   ARGV[2] lease ms   ARGV[3] tokens in the block (>= 1)
-- Returns the first token of the block (>= 1) when passed; 0 when released (and handed over if
-- someone waits); -1 when the caller did not own the lock (nothing touched).
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return -1 end
leave_queue(KEYS[3], KEYS[4], ARGV[1]) -- the hold's own entry is nobody waiting
if redis.call('EXISTS', KEYS[3]) == 1 then
  redis.call('DEL', KEYS[1])
  hand_off(KEYS[1], KEYS[2], KEYS[3], KEYS[4])
  return 0
end
local token, err = issue_token(KEYS[2], redis.call('TIME'), tonumber(ARGV[3]) - 1)
if not token then return redis.error_reply(err) end
redis.call('HSET', KEYS[1], 'token', token)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return tonumber(token)
