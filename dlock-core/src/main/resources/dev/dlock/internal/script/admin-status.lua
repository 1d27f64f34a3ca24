-- Reads a lock of any kind for operators (dlock status); admin-read.lua does the reading.
-- KEYS: the seven keys of a name (admin-read.lua)   ARGV[1] how many queued waiters to list
-- Returns {kind, capacity, waiters, holders, queue, last token} (admin_read). Error: the key holds
-- something that is not dlock's.
local state, err = admin_read(KEYS, millis(redis.call('TIME')), tonumber(ARGV[1]))
if not state then return err end
return state
