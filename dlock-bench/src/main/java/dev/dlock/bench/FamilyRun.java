package dev.dlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import org.HdrHistogram.Histogram;

/**
 * W9, W10 (a read-write lock) and W13 (multi-locks): threads of one client loop lock, critical section, unlock, as in
 * {@link InProcessRun}, each hold drawn at random: read or write ({@link Workload#writePercent()}), or two distinct
 * names of a small pool in a random order ({@link MultiLockCheck.Pair}). Exclusion is checked inside the critical
 * section: for the read-write lock by a {@link ReadWriteCheck}, for the multi-lock by a {@link MultiLockCheck}. A
 * measurement with any violation reports it as a failure, whichever the peer. W14 runs W13's multi-locks in processes
 * ({@link ProcessesRun}).
 */
final class FamilyRun {
    private static final long JOIN_MILLIS = 60_000;

    private final Workload workload;
    private final Settings settings;
    private final ReadWriteCheck readWrite = ReadWriteCheck.inMemory();
    private final MultiLockCheck multiLock = MultiLockCheck.inMemory();
    private final LongAdder violations = new LongAdder();
    private volatile boolean stop;
    private volatile Throwable failure;

    private FamilyRun(Workload workload, Settings settings) {
        this.workload = workload;
        this.settings = settings;
    }

    static Measurement run(Workload workload, Peer peer, Deployment deployment, Settings settings, int run) {
        return new FamilyRun(workload, settings).measure(peer, deployment, run);
    }

    private Measurement measure(Peer peer, Deployment deployment, int run) {
        Measurement m = new Measurement(deployment.target().topology(), workload, peer);
        try (Peer.Client client = peer.connect(deployment.target(), settings.lease(), false)) {
            Window window = Window.after(settings.warmupMillis(), settings.measureMillis());
            String base = "bench-" + workload.name() + "-" + run;
            List<Worker> workers = new ArrayList<>();
            for (int i = 0; i < workload.threads; i++) {
                Worker worker = new Worker(client, base, i + 1, window);
                workers.add(worker);
                worker.thread.start();
            }
            Observation seen = Observation.watch(deployment, settings, window, peer);
            stop = true;
            long joinDeadline = System.currentTimeMillis() + JOIN_MILLIS;
            int stuck = 0;
            for (Worker w : workers) {
                w.thread.join(Math.max(1, joinDeadline - System.currentTimeMillis()));
                stuck += w.thread.isAlive() ? 1 : 0;
            }
            if (stuck > 0) {
                m.failure = stuck + " threads still in lock() " + JOIN_MILLIS / 1000 + " s after the window ended";
            }
            Histogram lock = Latency.histogram();
            Histogram unlock = Latency.histogram();
            Histogram reads = Latency.histogram();
            Histogram writes = Latency.histogram();
            long pairs = 0;
            int starved = 0;
            for (Worker w : workers) {
                lock.add(w.readWait);
                lock.add(w.writeWait);
                reads.add(w.readWait);
                writes.add(w.writeWait);
                unlock.add(w.unlockLatency);
                pairs += w.pairs;
                starved += w.pairs == 0 ? 1 : 0;
            }
            m.put(Metric.STARVED, starved);
            Results.uncontended(m, pairs, window, lock, unlock, seen.redis(), seen.origins());
            if (workload.readWrite()) {
                Results.readWrite(m, reads, writes, readWrite.peakReaders());
            } else {
                m.put(Metric.LOCK_P99_OVER_MEAN, Latency.micros(lock, 99) / Latency.meanMicros(lock));
            }
            Results.violations(m, violations.sum());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            m.failure = "interrupted";
        } catch (RuntimeException e) {
            m.failure = e.toString();
        }
        if (failure != null && m.failure == null) {
            m.failure = failure.toString();
        }
        return m;
    }

    /** One benchmark thread; its histograms are read after it has been joined. */
    private final class Worker implements Runnable {
        final Thread thread;
        final Histogram readWait = Latency.histogram(); // W13: every multi-lock's wait
        final Histogram writeWait = Latency.histogram();
        final Histogram unlockLatency = Latency.histogram();
        long pairs;
        private final Peer.Client client;
        private final String base;
        private final int id;
        private final Window window;

        Worker(Peer.Client client, String base, int id, Window window) {
            this.client = client;
            this.base = base;
            this.id = id;
            this.window = window;
            this.thread = new Thread(this, "bench-" + id);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                ReadWriteLock readWriteLock = workload.readWrite() ? client.readWriteLock(base) : null;
                while (!stop) {
                    boolean write = false;
                    MultiLockCheck.Pair pair = null;
                    Lock lock;
                    if (readWriteLock != null) {
                        write = random.nextInt(100) < workload.writePercent();
                        lock = write ? readWriteLock.writeLock() : readWriteLock.readLock();
                    } else {
                        pair = MultiLockCheck.Pair.draw(random);
                        lock = client.multiLock(pair.names(base));
                    }
                    long t0 = System.nanoTime();
                    lock.lock();
                    long t1 = System.nanoTime();
                    if (!enter(write, pair)) {
                        violations.increment();
                    }
                    while (System.nanoTime() - t1 < workload.criticalNanos) {
                        Thread.onSpinWait();
                    }
                    leave(write, pair);
                    long t2 = System.nanoTime();
                    lock.unlock();
                    long t3 = System.nanoTime();
                    if (window.contains(t1)) {
                        pairs++;
                        (write ? writeWait : readWait).recordValue(Latency.clamp(t1 - t0));
                        unlockLatency.recordValue(Latency.clamp(t3 - t2));
                    }
                }
            } catch (Throwable t) {
                failure = t;
                stop = true;
            }
        }

        private boolean enter(boolean write, MultiLockCheck.Pair pair) {
            if (pair != null) {
                return multiLock.enter(pair, id);
            }
            return write ? readWrite.enterWrite() : readWrite.enterRead();
        }

        private void leave(boolean write, MultiLockCheck.Pair pair) {
            if (pair != null) {
                multiLock.leave(pair, id);
            } else if (write) {
                readWrite.leaveWrite();
            } else {
                readWrite.leaveRead();
            }
        }
    }
}
