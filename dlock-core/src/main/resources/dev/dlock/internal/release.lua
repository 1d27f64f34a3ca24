-- Deletes the lock only if ARGV[1] owns it; publishes a wake-up only if someone waits.
-- KEYS[1] lock hash   ARGV[1] owner id   ARGV[2] wake-up channel
-- Returns 1 when released, 0 when the caller did not own the lock (nothing touched).
if redis.call('HGET', KEYS[1], 'owner') ~= ARGV[1] then return 0 end
local waiters = redis.call('HGET', KEYS[1], 'waiters')
redis.call('DEL', KEYS[1])
if waiters then redis.call('PUBLISH', ARGV[2], 'released') end
return 1
