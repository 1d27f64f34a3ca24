-- Reads a lock's state. KEYS[1] lock hash   KEYS[2] fencing counter
-- Returns {pttl ms (-2 when free), token of holder or last issued (0 if unknown), holder id}.
local wrong = wrong_lock_type(KEYS[1])
if wrong then return wrong end
local holder = redis.call('HGET', KEYS[1], 'owner')
if holder then
  return {redis.call('PTTL', KEYS[1]), tonumber(redis.call('HGET', KEYS[1], 'token') or '0'), holder}
end
local last = redis.pcall('GET', KEYS[2])
if type(last) ~= 'string' then last = '0' end
return {-2, tonumber(last) or 0}
