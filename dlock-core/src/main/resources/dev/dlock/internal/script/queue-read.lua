-- Reads a queue of waiters without writing, put before the scripts that show one (info.lua,
-- shared-info.lua, admin-read.lua): the mutex's queue (LockKeys) and the shared model's (shared.lua)
-- are alike, a zset of owners in FIFO order and a hash of their entries.

-- The first 'shown' waiters of a queue in FIFO order, each {owner, weight}, and how many are queued.
-- 'weight_field': where the weight is in a queue entry (nil: a mutex's waiter, weight 1).
local function read_queue(queue, entries, shown, weight_field)
  local waiters = redis.call('ZCARD', queue)
  local listed = {}
  if shown > 0 and waiters > 0 then
    for _, owner in ipairs(redis.call('ZRANGE', queue, 0, shown - 1)) do
      local weight = 1
      if weight_field then
        local entry = redis.call('HGET', entries, owner) or ''
        local fields = {}
        for f in string.gmatch(entry, '%S+') do fields[#fields + 1] = f end
        weight = tonumber(fields[weight_field]) or 0
      end
      listed[#listed + 1] = {owner, weight}
    end
  end
  return listed, waiters
end
