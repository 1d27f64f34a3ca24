package dev.dlock.internal.redlock;

import dev.dlock.LockAdmin;
import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import dev.dlock.internal.script.LockKeys;
import dev.dlock.internal.util.Args;
import java.util.List;
import java.util.Optional;

/**
 * The operator view of a Redlock client's locks, as far as it makes sense over independent masters:
 * {@link #status} reads every node and reports the holder a quorum agrees on (waiters are always 0:
 * Redlock waiters poll, nothing is queued); {@link #forceUnlock} and {@link #purge} delete on every
 * node that answers. {@link #list} is not supported: a walk of every node's key space could not tell
 * a quorum's hold from a minority's leftovers in one consistent read. Thread-safe.
 */
final class RedlockAdmin implements LockAdmin {
    private final RedlockContext ctx;
    private final String keyPrefix;
    private final int maxNameLength;

    RedlockAdmin(RedlockContext ctx, String keyPrefix, int maxNameLength) {
        this.ctx = ctx;
        this.keyPrefix = keyPrefix;
        this.maxNameLength = maxNameLength;
    }

    @Override
    public LockInfo status(String name) {
        String[] keys = keys(name);
        RedlockLock.Snapshot s = RedlockLock.read(ctx, keys, name);
        return new LockInfo(name, s.holder(), s.remaining(), s.token());
    }

    /**
     * Not supported by a Redlock client.
     *
     * @throws UnsupportedOperationException always
     */
    @Override
    public List<LockInfo> list(String pattern) {
        throw new UnsupportedOperationException("LockAdmin.list is not supported on a Redlock client: its nodes are"
                + " independent, so a walk of their key spaces cannot tell a quorum's hold from a minority's"
                + " leftovers; use status(name) for a name you know");
    }

    @Override
    public ForcedUnlock forceUnlock(String name) {
        String[] keys = keys(name);
        LockInfo before = status(name);
        force(keys, name, "force");
        return new ForcedUnlock(before.isLocked() ? Optional.of(before) : Optional.empty(), false);
    }

    @Override
    public long purge(String name) {
        String[] keys = keys(name);
        long deleted = 0;
        for (Object reply : force(keys, name, "purge").replies) {
            if (reply instanceof List<?> list && list.size() == 4) {
                deleted += (Long) list.get(3);
            }
        }
        return deleted;
    }

    @Override
    public String keyBeside(String name, String suffix) {
        Args.notBlank("suffix", suffix);
        Args.name(name, maxNameLength);
        ctx.lifecycle().checkOpen();
        return LockKeys.of(keyPrefix, name).lock() + ":" + suffix;
    }

    /** Runs the force script on every node; at least a quorum must have answered. */
    private RedlockNodes.Round force(String[] keys, String name, String mode) {
        RedlockNodes.Round round = ctx.runtime()
                .await()
                .reply(
                        ctx.nodes().fanOut(RedlockScripts.FORCE, keys, new String[] {mode}, r -> false),
                        ctx.nodes().commandTimeout().toMillis() + 1000,
                        e -> e instanceof InterruptedException
                                ? new LockException("interrupted while deleting lock '" + name + "'", e)
                                : new LockConnectionException(
                                        ctx.nodes().maskedUris(), "no answer about lock '" + name + "'", e));
        if (round.answered < ctx.quorum()) {
            throw new LockConnectionException(
                    ctx.nodes().maskedUris(),
                    "only " + round.answered + " of " + ctx.size() + " nodes deleted lock '" + name
                            + "'; a holder may keep it on a quorum (" + round.failures() + ")",
                    round.firstFailure());
        }
        return round;
    }

    private String[] keys(String name) {
        Args.name(name, maxNameLength);
        ctx.lifecycle().checkOpen();
        return RedlockScripts.keys(keyPrefix, name);
    }
}
