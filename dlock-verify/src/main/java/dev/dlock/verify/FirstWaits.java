package dev.dlock.verify;

import dev.dlock.Lease;
import dev.dlock.LockClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Has clients wait once, before a scenario times anything, so that their pub/sub connections are open: a client opens
 * that connection on its first wait, which a loaded host has taken 2 s over (three lanes starting at once, or another
 * module's tests beside the run), and an acquire that spends its whole wait opening it ends busy although nobody else
 * was served first: checker 5 then reports a wait refused with no fault near. Users' first waits pay that cost too;
 * what the checkers judge is the protocol's waiting, so it is paid before the history starts.
 */
final class FirstWaits {
    private static final Duration STEP = Duration.ofSeconds(30);

    private FirstWaits() {}

    /**
     * For each client in turn: {@code holder} takes the throwaway lock {@code name}, the client waits for it, and once
     * the holder sees it queued it lets go and the client takes and releases it. The name's keys are purged at the end.
     *
     * @param holder a client other than {@code clients}, on the same server
     * @param name a lock name that no workload uses
     * @param clients the clients to open the pub/sub connection of
     * @throws IllegalStateException if a step did not happen within 30 s
     * @throws Exception if a wait failed
     */
    static void open(LockClient holder, String name, List<LockClient> clients) throws Exception {
        try {
            for (LockClient client : clients) {
                // a fixed lease: the warm-up may take seconds on a loaded host, longer than a renewal may lag
                Lease held = holder.lock(name)
                        .tryAcquire(STEP, Duration.ofSeconds(60))
                        .orElseThrow(() -> new IllegalStateException("the warm-up lock stayed busy"));
                CompletableFuture<Optional<Lease>> waiting =
                        CompletableFuture.supplyAsync(() -> client.lock(name).tryAcquire(STEP));
                ScriptStage.await(() -> holder.admin().status(name).waiters() >= 1, STEP, "a warm-up wait");
                held.release();
                ScriptStage.await(waiting, STEP, "a warm-up acquire").ifPresent(Lease::release);
            }
        } finally {
            holder.admin().purge(name);
        }
    }
}
