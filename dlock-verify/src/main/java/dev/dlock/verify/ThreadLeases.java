package dev.dlock.verify;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Map;

/**
 * The lease behind the calling thread's {@code lock()} hold, read from the client's internals. The {@code Lock}
 * interface gives the honest user only {@code isHeldByCurrentThread()}; the verifier needs the token to fence the
 * resource and the validity deadline to judge the history, so it reads them where the client keeps them (its map of
 * thread holds). If the internals change, {@link #of} fails loudly rather than guessing.
 */
final class ThreadLeases {

    private ThreadLeases() {}

    /**
     * Returns the lease of the calling thread's hold of {@code name}, or {@code null} when the thread holds none.
     *
     * @throws IllegalStateException if the client's internals are not what this class expects
     */
    static Lease of(LockClient client, String name) {
        try {
            Method holds = client.getClass().getDeclaredMethod("threadHolds");
            holds.setAccessible(true);
            Object hold = ((Map<?, ?>) holds.invoke(client)).get(name);
            if (hold == null) {
                return null;
            }
            Field thread = hold.getClass().getDeclaredField("thread");
            thread.setAccessible(true);
            if (thread.get(hold) != Thread.currentThread()) {
                return null;
            }
            Field lease = hold.getClass().getDeclaredField("lease");
            lease.setAccessible(true);
            return (Lease) lease.get(hold);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalStateException("cannot read the thread hold of '" + name + "' from " + client, e);
        }
    }
}
