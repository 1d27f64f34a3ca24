-- Reads one name of any kind for operators, without writing (admin-status, admin-scan), put after
-- common.lua and queue-read.lua. A name is a mutex (its key a hash, or absent) or a shared lock (its
-- key a string record '<kind> <declared> <capacity>', shared.lua: kind = the record's first word, so a
-- semaphore and any later kind on the same model read alike). Keys of a name (LockKeys, SemaphoreKeys), in this order:
--   {lock, fence, mutex queue, mutex queue entries, shared holds, shared queue, shared queue entries}

-- Returns {kind, capacity, waiters, holders, queue, last token issued (0: unknown)}: holders are
-- {owner, weight, token, remaining ms} (live ones only: a shared holder whose lease ran out at server
-- time 'now' is left out, not purged), queue the first 'shown' waiters. Or nil and an error reply when
-- the key holds something that is not dlock's.
local function admin_read(keys, now, shown)
  local lock = keys[1]
  local ktype = redis.call('TYPE', lock).ok
  local kind, capacity, holders, queue, waiters = 'mutex', 1, {}, nil, nil
  if ktype == 'hash' or ktype == 'none' then
    local owner = redis.call('HGET', lock, 'owner')
    if owner then
      local token = tonumber(redis.call('HGET', lock, 'token') or '0') or 0
      holders[1] = {owner, 1, token, math.max(0, redis.call('PTTL', lock))}
    end
    queue, waiters = read_queue(keys[3], keys[4], shown, nil)
  elseif ktype == 'string' then
    local raw = redis.call('GET', lock)
    local k, _, c = string.match(raw, '^(%a+) (%d+) (%d+)$')
    if not k then
      return nil, redis.error_reply('WRONGTYPE dlock key ' .. lock .. " holds '" .. string.sub(raw, 1, 40)
        .. "', not a dlock lock")
    end
    kind, capacity = k, tonumber(c)
    local all = redis.call('HGETALL', keys[5])
    for i = 1, #all, 2 do
      local weight, token, expiry = string.match(all[i + 1], '^(%d+) (%d+) (%d+)')
      if expiry and tonumber(expiry) > now then
        holders[#holders + 1] = {all[i], tonumber(weight), tonumber(token), tonumber(expiry) - now}
      end
    end
    queue, waiters = read_queue(keys[6], keys[7], shown, 4)
  else
    return nil, redis.error_reply('WRONGTYPE dlock lock key ' .. lock .. ' holds a ' .. ktype .. ', not a dlock lock')
  end
  local last = 0
  if #holders == 0 then
    local raw = redis.pcall('GET', keys[2])
    if type(raw) == 'string' then last = tonumber(raw) or 0 end
  end
  return {kind, capacity, waiters, holders, queue, last}
end
