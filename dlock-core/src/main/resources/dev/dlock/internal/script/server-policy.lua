-- Reads the server's eviction policy for the client's check at connect (scripts may call INFO).
-- Returns {maxmemory-policy, or '' when INFO does not say; maxmemory in bytes, 0 for no limit}.
local info = redis.call('INFO', 'memory')
local policy = string.match(info, 'maxmemory_policy:([%w%-]+)') or ''
return {policy, tonumber(string.match(info, '\nmaxmemory:(%d+)') or '0')}
