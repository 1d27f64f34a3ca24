package dev.dlock.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.Lock;

/**
 * One W5 client process: one client of a peer, one thread. It warms up on a key of its own (see {@link #warmUp}), prints {@code ready},
 * waits for {@code go START END} (monotonic nanos), contends for the shared key until END, writes its holds inside
 * the window to a file (one line per hold: sequence, acquire returned, release returned, wait) and prints {@code
 * done} with its counts. Arguments: peer host port leaseMillis slotsFile id resultFile selfWarmupMillis.
 */
final class ContenderMain {
    private ContenderMain() {}

    /**
     * Warms up the peer's code in this JVM, uncontended and contended, on a key of its own: for half the time one
     * thread locks and unlocks alone, then a second client of the same peer in this JVM contends with it, so that the
     * waiting and wake-up path of every peer is as warm as its uncontended path. Otherwise a process that gets an
     * eighth of the acquisitions runs that path in the interpreter for the whole phase.
     */
    private static void warmUp(
            Peer peer, Peer.Client client, String host, int port, Duration lease, String key, long nanos) {
        Lock own = client.lock(key);
        long half = System.nanoTime() + nanos / 2;
        while (System.nanoTime() - half < 0) {
            own.lock();
            own.unlock();
        }
        long end = System.nanoTime() + nanos / 2;
        try (Peer.Client second = peer.connect(host, port, lease, false)) {
            Lock rival = second.lock(key);
            Thread other = new Thread(() -> loopUntil(rival, end), "warm-up rival");
            other.start();
            loopUntil(own, end);
            other.join();
        } catch (Exception e) {
            throw new IllegalStateException("warm-up failed", e);
        }
    }

    private static void loopUntil(Lock lock, long end) {
        while (System.nanoTime() - end < 0) {
            lock.lock();
            lock.unlock();
        }
    }

    public static void main(String[] args) throws IOException {
        Peer peer = Peer.valueOf(args[0]);
        String host = args[1];
        int port = Integer.parseInt(args[2]);
        Duration lease = Duration.ofMillis(Long.parseLong(args[3]));
        SharedSlots slots = SharedSlots.open(Path.of(args[4]));
        int id = Integer.parseInt(args[5]);
        Path result = Path.of(args[6]);
        long selfWarmup = Long.parseLong(args[7]) * 1_000_000L;
        BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Peer.Client client = peer.connect(host, port, lease, false)) {
            warmUp(peer, client, host, port, lease, "bench-W5-warmup-" + id, selfWarmup);
            System.out.println("ready");
            String[] go = stdin.readLine().split(" ");
            Window window = new Window(Long.parseLong(go[1]), Long.parseLong(go[2]));
            Lock lock = client.lock(go[3]);
            int capacity = 1 << 18;
            long[] records = new long[capacity * 4];
            int n = 0;
            long violations = 0;
            long waitAcrossEnd = 0; // the lock() that began before the window's end and returned after it
            String error = "";
            try {
                while (System.nanoTime() - window.end() < 0) {
                    long t0 = System.nanoTime();
                    lock.lock();
                    long t1 = System.nanoTime();
                    if (!slots.enter(id)) {
                        violations++;
                    }
                    int seq = slots.nextSequence();
                    slots.leave(id);
                    lock.unlock();
                    long t3 = System.nanoTime();
                    if (t0 - window.end() < 0 && t1 - window.end() >= 0) {
                        waitAcrossEnd = t1 - t0;
                    }
                    if (window.contains(t1) && n < capacity) {
                        records[4 * n] = seq;
                        records[4 * n + 1] = t1;
                        records[4 * n + 2] = t3;
                        records[4 * n + 3] = t1 - t0;
                        n++;
                    }
                }
            } catch (RuntimeException e) {
                error = " error=" + e.toString().replace('\n', ' ');
            }
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(result))) {
                for (int i = 0; i < n; i++) {
                    out.printf(
                            "%d %d %d %d%n",
                            records[4 * i], records[4 * i + 1], records[4 * i + 2], records[4 * i + 3]);
                }
            }
            System.out.println(
                    "done violations=" + violations + " acquisitions=" + n + " acrossEnd=" + waitAcrossEnd + error);
        }
        System.exit(0); // some peers keep non-daemon threads for a while after close
    }
}
