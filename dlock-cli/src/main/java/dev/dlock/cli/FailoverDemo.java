package dev.dlock.cli;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import dev.dlock.LockInfo;
import dev.dlock.LockReplicationException;
import dev.dlock.testkit.RedisServer;
import dev.dlock.testkit.SentinelSetup;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code dlock demo --failover}: the textbook flaw of a Redis lock and its fix, side by side. Each
 * round starts a throwaway master, one replica and three sentinels, runs worker threads (one client
 * each) on one lock guarding a fenced counter, holds the replica back (so that what the master
 * writes next reaches it alone), lets a worker start a long job under the lock, kills the master and
 * lets the sentinels promote the replica. Without replica acknowledgement the new master never saw
 * that lock: another worker takes it while the first still holds it, with the same fencing token.
 * With {@code replicaAcks(1)} the lock is refused while the replica is held back, so nothing is
 * held that a failover can lose.
 */
final class FailoverDemo {
    private static final String NAME = "failover";
    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final long SHORT_JOB_MS = 100;
    /** A long job ends this long after the failover is done: time for the other clients to follow the sentinels. */
    private static final long FOLLOW_MS = 4_000;
    /** ... or this long before its lease ends, if the failover is slower than that. */
    private static final long LEASE_MARGIN_MS = 3_000;

    private final PrintStream out;
    private final int workers;
    private volatile boolean running;
    private volatile boolean paused;
    private volatile boolean longJobs;
    private volatile long failoverDoneAt;
    /** Workers inside an acquire or a job: the hold-back waits for none, so no write of theirs is in flight. */
    private final AtomicInteger busy = new AtomicInteger();

    private final AtomicInteger inLongJob = new AtomicInteger();

    FailoverDemo(PrintStream out, int workers) {
        this.out = out;
        this.workers = workers;
    }

    /** Runs both rounds and prints the comparison; exit 0 when the acknowledged round had no violation. */
    int run() throws InterruptedException {
        out.println("Each round: a throwaway master, 1 replica and 3 sentinels; " + workers
                + " workers, each its own client, on one lock (fixed leases of " + LEASE.toSeconds() + " s)"
                + " guarding a fenced counter.");
        DemoHolds plain = round("without replica acknowledgement", 0);
        DemoHolds acked = round("with replicaAcks(1)", 1);
        long[] plainOverlaps = plain.overlaps();
        long[] ackedOverlaps = acked.overlaps();
        out.println();
        out.printf("%-34s %-26s %s%n", "", "without replicaAcks", "with replicaAcks(1)");
        row("holds", plain.holdCount(), acked.holdCount());
        row("acquires refused (unacknowledged)", plain.refusedCount(), acked.refusedCount());
        row("time with two holders", twoHolders(plainOverlaps), twoHolders(ackedOverlaps));
        row("stale fencing tokens", plain.staleTokens(), acked.staleTokens());
        row(
                "stale writes the fence rejected",
                plain.counter().rejected(),
                acked.counter().rejected());
        row(
                "counter / accepted writes",
                plain.counter().value() + " / " + plain.counter().accepted(),
                acked.counter().value() + " / " + acked.counter().accepted());
        boolean safe = ackedOverlaps[1] == 0 && acked.staleTokens() == 0;
        boolean shown = plainOverlaps[1] > 0 || plain.staleTokens() > 0;
        out.println();
        out.println(
                shown
                        ? "Without acknowledgement the failover lost a granted lock: two workers held it at once."
                        : "Without acknowledgement the flaw did not show this time (the failover came after the job ended).");
        out.println(
                safe
                        ? "With replicaAcks(1) no lock was held that the failover could lose: Verdict: PASS"
                        : "With replicaAcks(1) a violation was seen: Verdict: FAIL");
        return safe ? ExitCodes.OK : ExitCodes.SOFTWARE;
    }

    private static String twoHolders(long[] overlaps) {
        return overlaps[1] == 0 ? "0 ms" : overlaps[0] + " ms (" + overlaps[1] + " holds)";
    }

    private void row(String what, Object plain, Object acked) {
        out.printf("%-34s %-26s %s%n", what, plain, acked);
    }

    private DemoHolds round(String label, int replicaAcks) throws InterruptedException {
        out.println();
        out.println("Round " + (replicaAcks == 0 ? 1 : 2) + ": " + label);
        DemoHolds holds = new DemoHolds();
        SentinelSetup setup = start();
        List<LockClient> clients = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        try {
            out.println("  started " + setup.uri() + " (master pid "
                    + setup.initialMaster().pid() + ")");
            running = true;
            paused = false;
            longJobs = false;
            failoverDoneAt = 0;
            for (int i = 1; i <= workers; i++) {
                LockClient.Builder builder = LockClient.builder()
                        .redisUri(setup.uri())
                        .leaseTime(LEASE)
                        .commandTimeout(Duration.ofSeconds(1))
                        .keyPrefix("dlock-demo")
                        .clientName("dlock-demo-" + i);
                if (replicaAcks > 0) {
                    builder.replicaAcks(replicaAcks).replicaAckTimeout(Duration.ofMillis(300));
                }
                LockClient client = builder.build();
                clients.add(client);
                int id = i;
                Thread thread = new Thread(() -> work(id, client.lock(NAME), holds), "demo-worker-" + i);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            Thread.sleep(2_000);
            failOver(setup, holds, clients.get(0).admin());
            awaitLongJobsEnded();
            Thread.sleep(1_000);
        } finally {
            running = false;
            for (Thread thread : threads) {
                thread.join(5_000);
            }
            for (LockClient client : clients) {
                client.close();
            }
            setup.close();
        }
        long[] overlaps = holds.overlaps();
        out.printf(
                "  %d holds, %d refused, %s with two holders, %d stale tokens, %d errors while the master was away%n",
                holds.holdCount(), holds.refusedCount(), twoHolders(overlaps), holds.staleTokens(), holds.errorCount());
        return holds;
    }

    private static SentinelSetup start() {
        try {
            return SentinelSetup.builder().replicas(1).start();
        } catch (RuntimeException e) {
            throw new CliFailure(
                    ExitCodes.UNAVAILABLE,
                    "cannot start a master, a replica and three sentinels (redis-server on PATH is needed): "
                            + e.getMessage(),
                    e);
        }
    }

    /**
     * Quiesces, holds the replica back, waits for a long job to start (or be refused), kills the master. The
     * replica must be held back on an idle lock: a grant or queue entry it received whose release it then missed
     * would be a ghost on the promoted replica, held for its whole lease, and no worker could take the lock there.
     */
    private void failOver(SentinelSetup setup, DemoHolds holds, LockAdmin admin) throws InterruptedException {
        paused = true;
        long quietBy = System.nanoTime() + 5_000_000_000L;
        while (busy.get() > 0 && System.nanoTime() < quietBy) {
            Thread.sleep(10);
        }
        awaitIdle(admin);
        setup.awaitReplicasInSync();
        RedisServer master = setup.initialMaster();
        SentinelSetup.HeldBackReplica hold =
                setup.holdBack(setup.initialReplicas().get(0));
        long heldBackAt = System.nanoTime();
        int refusedBefore = holds.refusedCount();
        out.println("  replica held back (paused, link dropped): writes now reach the master only");
        longJobs = true;
        paused = false;
        long waitBy = System.nanoTime() + 10_000_000_000L;
        while (holds.lastStart() - heldBackAt <= 0
                && holds.refusedCount() == refusedBefore
                && System.nanoTime() < waitBy) {
            Thread.sleep(10);
        }
        if (holds.refusedCount() > refusedBefore) {
            out.println("  acquire refused: " + holds.lastRefusal());
        } else if (holds.lastStart() - heldBackAt > 0) {
            out.println("  a worker took the lock and started a long job (until " + FOLLOW_MS / 1000
                    + " s after the failover)");
        } else {
            out.println("  no worker took the lock (or was refused) within 10 s");
        }
        Thread.sleep(300);
        master.kill();
        long killedAt = System.nanoTime();
        out.println("  SIGKILL master pid " + master.pid() + "; the sentinels promote the replica");
        hold.release();
        RedisServer promoted = setup.awaitFailover(Duration.ofSeconds(60));
        out.printf(
                Locale.ROOT,
                "  failover done after %.1f s: new master port %d; the old master rejoins as its replica%n",
                (System.nanoTime() - killedAt) / 1e9,
                promoted.port());
        failoverDoneAt = System.nanoTime();
        longJobs = false;
        setup.rejoin(master);
    }

    /** Waits (at most the longest queue entry lifetime, 5 s, and a bit) until nobody holds or waits for the lock. */
    private void awaitIdle(LockAdmin admin) throws InterruptedException {
        long by = System.nanoTime() + 6_000_000_000L;
        LockInfo info = admin.status(NAME);
        while (!idle(info) && System.nanoTime() - by < 0) {
            Thread.sleep(50);
            info = admin.status(NAME);
        }
        if (!idle(info)) {
            out.println("  the lock is not idle before the hold-back: " + info);
        }
    }

    private static boolean idle(LockInfo info) {
        return info.holderId().isEmpty() && info.waiters() == 0;
    }

    /** Waits for the long jobs to end: {@link #FOLLOW_MS} after the failover, at most the lease. */
    private void awaitLongJobsEnded() throws InterruptedException {
        long by = System.nanoTime() + LEASE.toNanos();
        while (inLongJob.get() > 0 && System.nanoTime() - by < 0) {
            Thread.sleep(50);
        }
    }

    /**
     * Whether a job that started at {@code start} is done: a short job after {@link #SHORT_JOB_MS}; a long
     * one (started while the replica was held back, or before the failover was known to be done)
     * {@link #FOLLOW_MS} after the failover, so that it surely overlaps the other clients' following,
     * however long the sentinels take, but never later than {@link #LEASE_MARGIN_MS} before its lease
     * ends: the holder keeps a valid lease all along.
     */
    private boolean jobDone(long start, boolean longJob) {
        long now = System.nanoTime();
        if (!longJob) {
            return now - start >= SHORT_JOB_MS * 1_000_000L;
        }
        long done = failoverDoneAt;
        return (done != 0 && now - done >= FOLLOW_MS * 1_000_000L)
                || now - start >= LEASE.toNanos() - LEASE_MARGIN_MS * 1_000_000L;
    }

    private void work(int id, DistributedLock lock, DemoHolds holds) {
        while (running) {
            busy.incrementAndGet(); // before reading paused: once the hold-back sees busy == 0, no one starts
            if (paused) {
                busy.decrementAndGet();
                sleep(10);
                continue;
            }
            try {
                attempt(id, lock, holds);
            } finally {
                busy.decrementAndGet();
            }
        }
    }

    private void attempt(int id, DistributedLock lock, DemoHolds holds) {
        Optional<Lease> got;
        try {
            // A fixed lease, as a ShedLock job or `dlock run` without renewal holds: the holder learns
            // nothing until it ends. A watchdog-renewed lease would learn of the loss at its next
            // renewal after the failover, which may come before or after another worker's acquire.
            got = lock.tryAcquire(Duration.ofMillis(300), LEASE);
        } catch (LockReplicationException e) {
            holds.refused(e.getMessage());
            sleep(100);
            return;
        } catch (LockException e) {
            holds.error(); // the master is away; the client follows the sentinels
            sleep(100);
            return;
        }
        got.ifPresent(lease -> hold(id, lease, holds));
    }

    private void hold(int id, Lease lease, DemoHolds holds) {
        boolean longJob = longJobs;
        if (longJob) {
            inLongJob.incrementAndGet();
        }
        try {
            long start = System.nanoTime();
            AtomicLong lostAt = new AtomicLong();
            lease.onLost(e -> lostAt.compareAndSet(0, System.nanoTime()));
            holds.started(lease.fencingToken(), start);
            long value = holds.counter().read();
            while (running && lease.isValid() && !jobDone(start, longJob)) {
                sleep(10);
            }
            holds.counter().write(value + 1, lease.fencingToken()); // the fence, not the client, decides
            long end = lostAt.get() != 0 ? lostAt.get() : System.nanoTime();
            try {
                lease.release();
            } catch (LockException e) {
                // lost meanwhile (counted through lostAt) or the master is away: the lease runs out
            }
            holds.ended(id, lease.fencingToken(), start, end);
        } finally {
            if (longJob) {
                inLongJob.decrementAndGet();
            }
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
