-- Takes the lock if it is free and issues a fencing token, all or nothing.
-- KEYS[1] lock hash {owner, token[, waiters]}   KEYS[2] fencing counter (string)
-- ARGV[1] owner id  ARGV[2] lease ms  ARGV[3] '1' = mark "someone waits" when busy
-- ARGV[4] '1' = mark "someone waits" when taken  ARGV[5] counter idle expiry ms
-- Returns {1, token, lease ms} when taken, {0, holder pttl ms, holder id} when busy.
-- The first write (SET of the counter) is the one Redis checks against maxmemory,
-- so under OOM nothing is written: no token is burned without a lock.
local kind = redis.call('TYPE', KEYS[1]).ok
if kind == 'hash' then
  local holder = redis.call('HGET', KEYS[1], 'owner')
  if holder ~= ARGV[1] then
    if ARGV[3] == '1' and redis.call('HEXISTS', KEYS[1], 'waiters') == 0 then
      redis.call('HSET', KEYS[1], 'waiters', '1')
    end
    return {0, redis.call('PTTL', KEYS[1]), holder}
  end
elseif kind ~= 'none' then
  return redis.error_reply('WRONGTYPE dlock lock key ' .. KEYS[1] .. ' holds a ' .. kind .. ', not a dlock hash')
end
local fkind = redis.call('TYPE', KEYS[2]).ok
if fkind ~= 'none' and fkind ~= 'string' then
  return redis.error_reply('WRONGTYPE dlock fencing key ' .. KEYS[2] .. ' holds a ' .. fkind)
end
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if last == nil then
  return redis.error_reply('WRONGTYPE dlock fencing key ' .. KEYS[2] .. ' does not hold a number')
end
local t = redis.call('TIME')
local token = tonumber(t[1]) * 1000000 + tonumber(t[2])
if token <= last then token = last + 1 end
local tokenText = string.format('%d', token)
redis.call('SET', KEYS[2], tokenText, 'PX', ARGV[5])
if kind == 'hash' then redis.call('DEL', KEYS[1]) end
redis.call('HSET', KEYS[1], 'owner', ARGV[1], 'token', tokenText)
if ARGV[4] == '1' then redis.call('HSET', KEYS[1], 'waiters', '1') end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, token, tonumber(ARGV[2])}
