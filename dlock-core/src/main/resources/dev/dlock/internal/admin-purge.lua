-- Deletes every key of a lock, fencing counter and queue included (for throwaway names such as the
-- demo's: without the counter, a later token of the same name only relies on the server clock).
-- KEYS[1] lock hash   KEYS[2] fencing counter   KEYS[3] queue   KEYS[4] queue entries
-- Returns the number of keys deleted.
local n = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4])
return n
