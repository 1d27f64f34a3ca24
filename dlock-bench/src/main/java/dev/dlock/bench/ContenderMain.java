package dev.dlock.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * One client process of W5, W8, W11, W12 and W14: one client of a peer, one thread. It warms up on a key of its own,
 * prints {@code ready}, waits for {@code go START END NAME} (monotonic nanos), contends for the shared key {@code NAME}
 * (in W14 for multi-locks of two names drawn from {@code NAME-0} to {@code NAME-3}) until END, writes its holds inside
 * the window to a file (one line per hold: sequence, acquire returned, release returned, wait, 1 if it wrote, the
 * release's duration) and prints {@code done} with its counts. Arguments: peer target ({@link Target#encode()})
 * leaseMillis slotsFile id resultFile selfWarmupMillis workload; the workload gives the permits (a semaphore's in W8,
 * where up to that many may be inside at once), the share of a read-write lock's holds that write (W11, W12, drawn per
 * hold), whether it takes multi-locks, and how long each hold stays inside.
 */
final class ContenderMain {
    /** The longs recorded per hold, as written to the result file. */
    private static final int FIELDS = 6;

    private ContenderMain() {}

    public static void main(String[] args) throws IOException {
        Peer peer = Peer.valueOf(args[0]);
        Target target = Target.decode(args[1]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
        SharedSlots slots = SharedSlots.open(Path.of(args[3]));
        int id = Integer.parseInt(args[4]);
        Path result = Path.of(args[5]);
        long selfWarmup = Long.parseLong(args[6]) * 1_000_000L;
        Workload workload = Workload.valueOf(args[7]);
        int writePercent = workload.writePercent();
        long critical = workload.criticalNanos;
        Inside inside = new Inside(slots, workload.permits(), id);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Peer.Client client = peer.connect(target, lease, false)) {
            String warmup = "bench-W5-warmup-" + id;
            ReadWriteLock ownReadWrite = writePercent >= 0 ? client.readWriteLock(warmup) : null;
            long warmEnd = System.nanoTime() + selfWarmup;
            for (int k = 0; System.nanoTime() - warmEnd < 0; k++) {
                Lock own = workload.multiLock()
                        ? client.multiLock(List.of(warmup + "-0", warmup + "-1"))
                        : ownReadWrite == null
                                ? client.lock(warmup)
                                : k % 2 == 0 ? ownReadWrite.readLock() : ownReadWrite.writeLock();
                own.lock();
                own.unlock();
            }
            System.out.println("ready");
            String[] go = stdin.readLine().split(" ");
            Window window = new Window(Long.parseLong(go[1]), Long.parseLong(go[2]));
            ReadWriteLock shared = writePercent >= 0 ? client.readWriteLock(go[3]) : null;
            Lock mutex = shared == null && !workload.multiLock() ? client.lock(go[3]) : null;
            int capacity = 1 << 18;
            long[] records = new long[capacity * FIELDS];
            int n = 0;
            long violations = 0;
            long waitAcrossEnd = 0; // the lock() that began before the window's end and returned after it
            String error = "";
            try {
                while (System.nanoTime() - window.end() < 0) {
                    boolean write = shared != null && random.nextInt(100) < writePercent;
                    MultiLockCheck.Pair pair = workload.multiLock() ? MultiLockCheck.Pair.draw(random) : null;
                    Lock lock = pair != null
                            ? client.multiLock(pair.names(go[3]))
                            : shared == null ? mutex : write ? shared.writeLock() : shared.readLock();
                    long t0 = System.nanoTime();
                    lock.lock();
                    long t1 = System.nanoTime();
                    if (!inside.enter(shared != null, write, pair)) {
                        violations++;
                    }
                    int seq = slots.nextSequence();
                    while (System.nanoTime() - t1 < critical) {
                        Thread.onSpinWait();
                    }
                    inside.leave(shared != null, write, pair);
                    long t2 = System.nanoTime();
                    lock.unlock();
                    long t3 = System.nanoTime();
                    if (t0 - window.end() < 0 && t1 - window.end() >= 0) {
                        waitAcrossEnd = t1 - t0;
                    }
                    if (window.contains(t1) && n < capacity) {
                        int r = FIELDS * n++;
                        records[r] = seq;
                        records[r + 1] = t1;
                        records[r + 2] = t3;
                        records[r + 3] = t1 - t0;
                        records[r + 4] = write ? 1 : 0;
                        records[r + 5] = t3 - t2;
                    }
                }
            } catch (RuntimeException e) {
                error = " error=" + e.toString().replace('\n', ' ');
            }
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(result))) {
                for (int r = 0; r < FIELDS * n; r += FIELDS) {
                    out.printf(
                            "%d %d %d %d %d %d%n",
                            records[r], records[r + 1], records[r + 2], records[r + 3], records[r + 4], records[r + 5]);
                }
            }
            System.out.println(
                    "done violations=" + violations + " acquisitions=" + n + " acrossEnd=" + waitAcrossEnd + error);
        }
        System.exit(0); // some peers keep non-daemon threads for a while after close
    }

    /**
     * Counts this process's holder in and out of the critical section in the shared mapping: an owner slot for a lock,
     * a count for a semaphore, a {@link ReadWriteCheck} for a read-write lock, a {@link MultiLockCheck} for the
     * multi-locks.
     */
    private record Inside(SharedSlots slots, ReadWriteCheck readWrite, MultiLockCheck multi, int permits, int id) {
        Inside(SharedSlots slots, int permits, int id) {
            this(slots, slots.readWriteCheck(), slots.multiLockCheck(), permits, id);
        }

        /** Counts this holder in; false on an exclusion violation. */
        boolean enter(boolean readWriteLock, boolean write, MultiLockCheck.Pair pair) {
            if (pair != null) {
                return multi.enter(pair, id);
            }
            if (readWriteLock) {
                return write ? readWrite.enterWrite() : readWrite.enterRead();
            }
            return permits > 1 ? slots.enterShared(permits) : slots.enter(id);
        }

        void leave(boolean readWriteLock, boolean write, MultiLockCheck.Pair pair) {
            if (pair != null) {
                multi.leave(pair, id);
            } else if (readWriteLock) {
                if (write) {
                    readWrite.leaveWrite();
                } else {
                    readWrite.leaveRead();
                }
            } else if (permits > 1) {
                slots.leaveShared();
            } else {
                slots.leave(id);
            }
        }
    }
}
