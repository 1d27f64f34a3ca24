-- Renews many leases in one round trip; each only if its owner still holds it.
-- KEYS[i] lock hash   ARGV[1] lease ms   ARGV[i+1] owner id of KEYS[i]
-- Returns an array: 1 renewed, 0 gone or owned by someone else (nothing touched).
local result = {}
for i, key in ipairs(KEYS) do
  local holder = redis.pcall('HGET', key, 'owner')
  if type(holder) == 'string' and holder == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    result[i] = 1
  else
    result[i] = 0
  end
end
return result
