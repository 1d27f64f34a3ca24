-- Deletes every key of a name of any kind, fencing counter and queues included (for throwaway names
-- such as the demo's: without the counter, a later token of the same name only relies on the server
-- clock).
-- KEYS[1] lock key   KEYS[2] fencing counter   KEYS[3] mutex queue   KEYS[4] mutex queue entries
-- KEYS[5] shared holds   KEYS[6] shared queue   KEYS[7] shared queue entries
-- Returns the number of keys deleted.
return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7])
