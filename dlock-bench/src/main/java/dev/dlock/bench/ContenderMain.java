package dev.dlock.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * One W5 client process: one client of a peer, one thread. It warms up on a key of its own, prints {@code ready},
 * waits for {@code go START END} (monotonic nanos), contends for the shared key until END, writes its holds inside
 * the window to a file (one line per hold: sequence, acquire returned, release returned, wait, 1 if it wrote) and
 * prints {@code done} with its counts. Arguments: peer target ({@link Target#encode()}) leaseMillis slotsFile id
 * resultFile selfWarmupMillis permits (1 for a lock; a semaphore's permits in W8, where up to that many may be inside
 * at once) writePercent (-1 for a lock or semaphore; in W11 and W12 the share of a read-write lock's holds that
 * write, drawn per hold) criticalNanos (how long each hold stays inside).
 */
final class ContenderMain {
    private ContenderMain() {}

    public static void main(String[] args) throws IOException {
        Peer peer = Peer.valueOf(args[0]);
        Target target = Target.decode(args[1]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[2]));
        SharedSlots slots = SharedSlots.open(Path.of(args[3]));
        int id = Integer.parseInt(args[4]);
        Path result = Path.of(args[5]);
        long selfWarmup = Long.parseLong(args[6]) * 1_000_000L;
        int permits = Integer.parseInt(args[7]);
        int writePercent = Integer.parseInt(args[8]);
        long critical = Long.parseLong(args[9]);
        ReadWriteCheck readWrite = slots.readWriteCheck();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Peer.Client client = peer.connect(target, lease, false)) {
            String warmup = "bench-W5-warmup-" + id;
            ReadWriteLock ownReadWrite = writePercent >= 0 ? client.readWriteLock(warmup) : null;
            long warmEnd = System.nanoTime() + selfWarmup;
            for (int k = 0; System.nanoTime() - warmEnd < 0; k++) {
                Lock own = ownReadWrite == null
                        ? client.lock(warmup)
                        : k % 2 == 0 ? ownReadWrite.readLock() : ownReadWrite.writeLock();
                own.lock();
                own.unlock();
            }
            System.out.println("ready");
            String[] go = stdin.readLine().split(" ");
            Window window = new Window(Long.parseLong(go[1]), Long.parseLong(go[2]));
            ReadWriteLock shared = writePercent >= 0 ? client.readWriteLock(go[3]) : null;
            Lock mutex = shared == null ? client.lock(go[3]) : null;
            int capacity = 1 << 18;
            long[] records = new long[capacity * 5];
            int n = 0;
            long violations = 0;
            long waitAcrossEnd = 0; // the lock() that began before the window's end and returned after it
            String error = "";
            try {
                while (System.nanoTime() - window.end() < 0) {
                    boolean write = shared != null && random.nextInt(100) < writePercent;
                    Lock lock = shared == null ? mutex : write ? shared.writeLock() : shared.readLock();
                    long t0 = System.nanoTime();
                    lock.lock();
                    long t1 = System.nanoTime();
                    if (!enter(slots, readWrite, shared != null, write, permits, id)) {
                        violations++;
                    }
                    int seq = slots.nextSequence();
                    while (System.nanoTime() - t1 < critical) {
                        Thread.onSpinWait();
                    }
                    leave(slots, readWrite, shared != null, write, permits, id);
                    lock.unlock();
                    long t3 = System.nanoTime();
                    if (t0 - window.end() < 0 && t1 - window.end() >= 0) {
                        waitAcrossEnd = t1 - t0;
                    }
                    if (window.contains(t1) && n < capacity) {
                        records[5 * n] = seq;
                        records[5 * n + 1] = t1;
                        records[5 * n + 2] = t3;
                        records[5 * n + 3] = t1 - t0;
                        records[5 * n + 4] = write ? 1 : 0;
                        n++;
                    }
                }
            } catch (RuntimeException e) {
                error = " error=" + e.toString().replace('\n', ' ');
            }
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(result))) {
                for (int i = 0; i < n; i++) {
                    out.printf(
                            "%d %d %d %d %d%n",
                            records[5 * i],
                            records[5 * i + 1],
                            records[5 * i + 2],
                            records[5 * i + 3],
                            records[5 * i + 4]);
                }
            }
            System.out.println(
                    "done violations=" + violations + " acquisitions=" + n + " acrossEnd=" + waitAcrossEnd + error);
        }
        System.exit(0); // some peers keep non-daemon threads for a while after close
    }

    /** Counts this holder in; false on an exclusion violation (see {@link SharedSlots} and {@link ReadWriteCheck}). */
    private static boolean enter(
            SharedSlots slots, ReadWriteCheck readWrite, boolean readWriteLock, boolean write, int permits, int id) {
        if (readWriteLock) {
            return write ? readWrite.enterWrite() : readWrite.enterRead();
        }
        return permits > 1 ? slots.enterShared(permits) : slots.enter(id);
    }

    private static void leave(
            SharedSlots slots, ReadWriteCheck readWrite, boolean readWriteLock, boolean write, int permits, int id) {
        if (readWriteLock) {
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
