-- Renews many leases in one round trip; each only if its owner still holds it.
-- KEYS[i] lock hash   ARGV[1] lease ms   ARGV[i+1] owner id of KEYS[i]
-- Returns an array: 1 renewed, 0 gone or owned by someone else (nothing touched).
local result = {}
local keys = KEYS -- Scripts.crossSlot replaces this line
for i, key in ipairs(keys) do
  local holder = redis.pcall('HGET', key, 'owner')
  if type(holder) == 'table' and holder.err and not string.find(holder.err, '^WRONGTYPE') then
    return redis.error_reply(holder.err) -- e.g. a slot that moved off this node: renewed by slot instead
  end
  if type(holder) == 'string' and holder == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
