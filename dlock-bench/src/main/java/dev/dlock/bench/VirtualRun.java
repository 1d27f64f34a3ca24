package dev.dlock.bench;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.resp.RespTransportFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import jdk.jfr.Recording;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;

/**
 * W15: many threads of one client (10,000 virtual threads in the suite) contend over a few names (100), each thread
 * looping take, check, release on its own name ({@code i % names}), so that every name has a line of waiters. Run
 * through dlock's {@code lock()}/{@code unlock()}, through its {@code acquire()}/{@link Lease}, and through Redisson's
 * {@code RLock}, each against the same server. Exclusion is checked per name with an owner slot, as in W2–W4; besides
 * the pairs per second a run records the platform threads added while it ran ({@link Carriers.ThreadCount}) and the
 * JFR {@code jdk.VirtualThreadPinned} events ({@link Carriers#stopAndRead}). {@link #failedChecks} says which of the
 * workload's goals a set of runs missed.
 */
final class VirtualRun {
    /** How long the threads get to finish their last wait once the window has ended. */
    private static final long JOIN_MILLIS = 120_000;

    /** The three ways W15 takes its locks. */
    enum Mode {
        DLOCK_LOCK("dlock lock()/unlock()", true),
        DLOCK_LEASE("dlock acquire()/Lease", true),
        REDISSON("Redisson RLock lock()/unlock()", false);

        final String label;
        final boolean dlock;

        Mode(String label, boolean dlock) {
            this.label = label;
            this.dlock = dlock;
        }
    }

    /**
     * The size of a run.
     *
     * @param threads how many threads contend
     * @param names over how many names
     * @param warmupMillis before the measured window
     * @param measureMillis the measured window
     */
    record Sizes(int threads, int names, long warmupMillis, long measureMillis) {
        static final Sizes FULL = new Sizes(10_000, 100, 3_000, 10_000);

        /**
         * The most platform threads a run may add: a fixed few for the client and the virtual threads' carriers,
         * never one per waiter.
         */
        int platformThreadLimit() {
            return Math.min(64, threads / 4);
        }
    }

    /**
     * What one run of one mode measured.
     *
     * @param mode the mode
     * @param pairsPerSecond takes whose take returned inside the window, per second
     * @param violations takes that found the name's owner slot taken
     * @param starved threads with no take inside the window
     * @param platformThreadsAdded the most platform threads alive at once beyond those before the threads started
     * @param pinned the pinned events of the run
     * @param failure why the run did not complete, or null
     */
    record Result(
            Mode mode,
            double pairsPerSecond,
            long violations,
            int starved,
            int platformThreadsAdded,
            Carriers.Pinned pinned,
            String failure) {}

    private final Mode mode;
    private final Sizes sizes;
    private final AtomicIntegerArray owners;
    private final LongAdder violations = new LongAdder();
    private volatile boolean stop;
    private volatile Throwable failure;

    private VirtualRun(Mode mode, Sizes sizes) {
        this.mode = mode;
        this.sizes = sizes;
        this.owners = new AtomicIntegerArray(sizes.names());
    }

    /**
     * Runs {@code mode} once against {@code target}.
     *
     * @param threads the factory of the contending threads: virtual in the suite
     * @param lease the lease time of the watchdog-renewed holds, as in every workload
     */
    static Result run(Mode mode, Target target, Sizes sizes, ThreadFactory threads, Duration lease, int run) {
        return new VirtualRun(mode, sizes).measure(target, threads, lease, "w15-" + run + "-");
    }

    private Result measure(Target target, ThreadFactory factory, Duration lease, String prefix) {
        Client client = Client.connect(mode, target, lease);
        try (client) {
            client.hold(prefix + "warm").take().run(); // connections and scripts ready before counting threads
            Recording recording = Carriers.startRecording();
            Window window = Window.after(sizes.warmupMillis(), sizes.measureMillis());
            List<Worker> workers = new ArrayList<>(sizes.threads());
            int added;
            try (Carriers.ThreadCount count = new Carriers.ThreadCount()) {
                for (int i = 0; i < sizes.threads(); i++) {
                    int slot = i % sizes.names();
                    Worker w = new Worker(client.hold(prefix + slot), slot, i + 1, window);
                    w.thread = factory.newThread(w);
                    workers.add(w);
                    w.thread.start();
                }
                Window.sleepUntil(window.end());
                stop = true;
                long deadline = System.currentTimeMillis() + JOIN_MILLIS;
                for (Worker w : workers) {
                    w.thread.join(Math.max(1, deadline - System.currentTimeMillis()));
                }
                added = count.added();
            }
            Carriers.Pinned pinned = Carriers.stopAndRead(recording);
            long stuck = workers.stream().filter(w -> w.thread.isAlive()).count();
            long pairs = workers.stream().mapToLong(w -> w.pairs).sum();
            int starved = (int) workers.stream().filter(w -> w.pairs == 0).count();
            String why = failure != null
                    ? failure.toString()
                    : stuck > 0 ? stuck + " threads still waiting " + JOIN_MILLIS / 1000 + " s after the window" : null;
            return new Result(mode, pairs / window.seconds(), violations.sum(), starved, added, pinned, why);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(mode, Double.NaN, violations.sum(), 0, 0, null, "interrupted");
        } catch (Exception e) {
            return new Result(mode, Double.NaN, violations.sum(), 0, 0, null, e.toString());
        }
    }

    /** One contending thread on one name. */
    private final class Worker implements Runnable {
        Thread thread;
        long pairs;
        private final Hold hold;
        private final int slot;
        private final int id;
        private final Window window;

        Worker(Hold hold, int slot, int id, Window window) {
            this.hold = hold;
            this.slot = slot;
            this.id = id;
            this.window = window;
        }

        @Override
        public void run() {
            try {
                while (!stop) {
                    Runnable release = hold.take();
                    long taken = System.nanoTime();
                    if (!owners.compareAndSet(slot, 0, id)) {
                        violations.increment();
                    }
                    Thread.onSpinWait();
                    owners.compareAndSet(slot, id, 0);
                    release.run();
                    if (window.contains(taken)) {
                        pairs++;
                    }
                }
            } catch (Throwable t) {
                failure = t;
                stop = true;
            }
        }
    }

    /** Takes one name's lock and returns how to release it. */
    @FunctionalInterface
    interface Hold {
        Runnable take();
    }

    /** The client of a mode: dlock on dlock-resp, or Redisson. */
    private static final class Client implements AutoCloseable {
        private final Mode mode;
        private final LockClient dlock;
        private final RedissonClient redisson;

        private Client(Mode mode, LockClient dlock, RedissonClient redisson) {
            this.mode = mode;
            this.dlock = dlock;
            this.redisson = redisson;
        }

        static Client connect(Mode mode, Target target, Duration lease) {
            if (mode.dlock) {
                return new Client(
                        mode,
                        LockClient.builder()
                                .redisUri(target.dlockUri())
                                .leaseTime(lease)
                                .transport(new RespTransportFactory())
                                .build(),
                        null);
            }
            return new Client(mode, null, Redisson.create(RedissonClientPeer.config(target, lease)));
        }

        Hold hold(String name) {
            return switch (mode) {
                case DLOCK_LOCK -> {
                    DistributedLock lock = dlock.lock(name);
                    yield () -> {
                        lock.lock();
                        return lock::unlock;
                    };
                }
                case DLOCK_LEASE -> {
                    DistributedLock lock = dlock.lock(name);
                    yield () -> lock.acquire()::release;
                }
                case REDISSON -> {
                    RLock lock = redisson.getLock(name);
                    yield () -> {
                        lock.lock();
                        return lock::unlock;
                    };
                }
            };
        }

        @Override
        public void close() {
            if (dlock != null) {
                dlock.close();
            } else {
                redisson.shutdown();
            }
        }
    }

    /**
     * The goals W15 missed over a set of runs (each run: one result per mode); empty when every one is met. Goals: no
     * run failed; no exclusion violation; no pinned event with dlock's code on the stack; dlock's modes add at most
     * {@link Sizes#platformThreadLimit()} platform threads; each dlock mode's median pairs/s is at least twice
     * Redisson's, as the median of the ratios within each run.
     */
    static List<String> failedChecks(List<List<Result>> runs, Sizes sizes) {
        List<String> failed = new ArrayList<>();
        for (List<Result> run : runs) {
            for (Result r : run) {
                if (r.failure() != null) {
                    failed.add(r.mode().label + " failed: " + r.failure());
                    continue;
                }
                if (r.violations() > 0) {
                    failed.add(r.mode().label + ": " + r.violations() + " exclusion violations");
                }
                if (r.mode().dlock && r.pinned().inDlock() > 0) {
                    failed.add(r.mode().label + ": " + r.pinned().inDlock() + " pinned events in dlock's code at "
                            + r.pinned().dlockFrames());
                }
                if (r.mode().dlock && r.platformThreadsAdded() > sizes.platformThreadLimit()) {
                    failed.add(r.mode().label + ": " + r.platformThreadsAdded() + " platform threads added for "
                            + sizes.threads() + " waiters (at most " + sizes.platformThreadLimit() + ")");
                }
            }
        }
        for (Mode mode : List.of(Mode.DLOCK_LOCK, Mode.DLOCK_LEASE)) {
            Spread ratio = Spread.of(runs.stream().map(run -> ratio(run, mode)).toList());
            if (!(ratio.median() >= 2)) {
                failed.add(String.format(
                        Locale.ROOT, "%s: %.2f× Redisson's pairs/s (median), not ≥ 2×", mode.label, ratio.median()));
            }
        }
        return failed;
    }

    /** {@code mode}'s pairs/s over Redisson's within one run; NaN if either is missing. */
    static double ratio(List<Result> run, Mode mode) {
        double dlock = pairsPerSecond(run, mode);
        double redisson = pairsPerSecond(run, Mode.REDISSON);
        return redisson > 0 ? dlock / redisson : Double.NaN;
    }

    static double pairsPerSecond(List<Result> run, Mode mode) {
        return run.stream()
                .filter(r -> r.mode() == mode && r.failure() == null)
                .mapToDouble(Result::pairsPerSecond)
                .findFirst()
                .orElse(Double.NaN);
    }

    /** The console line of one result. */
    static String line(int run, Result r) {
        if (r.failure() != null) {
            return "run " + run + " W15 " + r.mode().label + ": FAILED: " + r.failure();
        }
        return String.format(
                Locale.ROOT,
                "run %d W15 %s: pairs/s=%.0f, platform threads added=%d, pinned in dlock=%d, pinned elsewhere=%d,"
                        + " starved=%d, violations=%d",
                run,
                r.mode().label,
                r.pairsPerSecond(),
                r.platformThreadsAdded(),
                r.pinned().inDlock(),
                r.pinned().elsewhere(),
                r.starved(),
                r.violations());
    }
}
