package dev.dlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Lock;
import org.HdrHistogram.Histogram;

/**
 * W1–W4 and W7: threads of one client in this JVM loop lock, critical section, unlock, from the start of the warm-up until
 * the end of the measured window; only pairs whose lock returned inside the window count. Mutual exclusion is checked
 * by an owner slot per key that each holder claims with a compare-and-set inside its critical section; in W7 (a
 * semaphore) by a count of the holders inside, which must not pass the permits.
 */
final class InProcessRun {
    private static final long JOIN_MILLIS = 60_000;

    private final Workload workload;
    private final Peer peer;
    private final Deployment deployment;
    private final Settings settings;
    private final AtomicIntegerArray owners;
    private final AtomicInteger sequence = new AtomicInteger();
    private final LongAdder violations = new LongAdder();
    private final AtomicInteger inside = new AtomicInteger(); // W7: holders in their critical section now
    private final AtomicInteger peak = new AtomicInteger();
    private final Holds holds;
    private volatile boolean stop;
    private volatile Throwable failure;

    private InProcessRun(Workload workload, Peer peer, Deployment deployment, Settings settings) {
        this.workload = workload;
        this.peer = peer;
        this.deployment = deployment;
        this.settings = settings;
        this.owners = new AtomicIntegerArray(workload.sharedKey ? 1 : workload.threads);
        // handoff and fairness follow one holder after another: a lock's, not a semaphore's
        this.holds = workload.sharedKey && workload.permits() == 1 ? new Holds(1 << 21) : null;
    }

    static Measurement run(Workload workload, Peer peer, Deployment deployment, Settings settings, int run) {
        return new InProcessRun(workload, peer, deployment, settings).measure(run);
    }

    private Measurement measure(int run) {
        Measurement m = new Measurement(deployment.target().topology(), workload, peer);
        try (Peer.Client client = peer.connect(deployment.target(), settings.lease(), false)) {
            Window window = Window.after(settings.warmupMillis(), settings.measureMillis());
            List<Worker> workers = new ArrayList<>();
            for (int i = 0; i < workload.threads; i++) {
                String base = "bench-" + workload.name() + "-" + run;
                String key = workload.sharedKey ? base : deployment.ownKey(base, i);
                Worker worker = new Worker(client, key, workload.sharedKey ? 0 : i, i + 1, window);
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
            long pairs = 0;
            int starved = 0;
            long acrossEnd = 0;
            for (Worker w : workers) {
                lock.add(w.lockLatency);
                unlock.add(w.unlockLatency);
                pairs += w.pairs;
                starved += w.pairs == 0 ? 1 : 0;
                acrossEnd = Math.max(acrossEnd, w.waitAcrossEnd);
            }
            m.put(Metric.STARVED, starved);
            m.put(Metric.WAIT_ACROSS_END, acrossEnd / 1e6);
            Results.uncontended(m, pairs, window, lock, unlock, seen.redis(), seen.origins());
            m.put(Metric.CLIENT_CPU_PER_ACQ, pairs == 0 ? Double.NaN : seen.cpuNanos() / 1000.0 / pairs);
            m.put(Metric.ALLOC_PER_PAIR, pairs == 0 ? Double.NaN : (double) seen.allocatedBytes() / pairs);
            if (holds != null) {
                Results.contended(m, holds.analyse(window, sequence.get()), lock);
            } else if (workload.permits() > 1) {
                m.put(Metric.LOCK_P99_OVER_MEAN, Latency.micros(lock, 99) / Latency.meanMicros(lock));
                m.put(Metric.PEAK_HOLDERS, peak.get());
            }
            m.put(Metric.VIOLATIONS, violations.sum());
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
        final Histogram lockLatency = Latency.histogram();
        final Histogram unlockLatency = Latency.histogram();
        long pairs;
        long waitAcrossEnd; // the lock() that began before the window's end and returned after it
        private final Peer.Client client;
        private final String key;
        private final int slot;
        private final int id;
        private final Window window;

        Worker(Peer.Client client, String key, int slot, int id, Window window) {
            this.client = client;
            this.key = key;
            this.slot = slot;
            this.id = id;
            this.window = window;
            this.thread = new Thread(this, "bench-" + id);
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            try {
                Lock lock = client.lock(key);
                long critical = workload.criticalNanos;
                while (!stop) {
                    long t0 = System.nanoTime();
                    lock.lock();
                    long t1 = System.nanoTime();
                    if (workload.permits() > 1) {
                        int now = inside.incrementAndGet();
                        peak.accumulateAndGet(now, Math::max);
                        if (now > workload.permits()) {
                            violations.increment();
                        }
                    } else if (!owners.compareAndSet(slot, 0, id)) {
                        violations.increment();
                    }
                    int seq = holds != null ? sequence.getAndIncrement() : -1;
                    while (critical > 0 && System.nanoTime() - t1 < critical) {
                        Thread.onSpinWait();
                    }
                    if (workload.permits() > 1) {
                        inside.decrementAndGet();
                    } else {
                        owners.compareAndSet(slot, id, 0);
                    }
                    long t2 = System.nanoTime();
                    lock.unlock();
                    long t3 = System.nanoTime();
                    if (t0 - window.end() < 0 && t1 - window.end() >= 0) {
                        waitAcrossEnd = t1 - t0;
                    }
                    if (window.contains(t1)) {
                        pairs++;
                        lockLatency.recordValue(Latency.clamp(t1 - t0));
                        unlockLatency.recordValue(Latency.clamp(t3 - t2));
                    }
                    if (holds != null) {
                        holds.record(seq, t1, t3, id, t1 - t0);
                    }
                }
            } catch (Throwable t) {
                failure = t;
                stop = true;
            }
        }
    }
}
