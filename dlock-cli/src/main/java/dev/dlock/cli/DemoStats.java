package dev.dlock.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * What the demo learns from its workers' event lines (see {@link WorkerCommand}), and the verdict.
 * Thread-safe: one reader thread per worker feeds it, the demo's main thread reads it.
 */
final class DemoStats {
    private final Map<Integer, String> clientIds = new TreeMap<>();
    private final List<Long> handoffMicros = new ArrayList<>();
    private final Map<Long, Long> tokenByValue = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();
    private long acquisitions;
    private long increments;
    private long staleRejected;
    private long lost;
    private int holder = -1;
    private long holderToken;
    private int lastReleaser = -1;
    private long lastReleaseMicros;
    private int heldForKill = -1;
    private long heldForKillToken;
    private long killMicros;
    private long takeoverMicros = -1;
    private int takeoverWorker = -1;
    private long takeoverToken;

    synchronized void onLine(String line) {
        String[] f = line.trim().split(" ");
        if (f.length < 2) {
            return;
        }
        int worker = Integer.parseInt(f[1]);
        switch (f[0]) {
            case "READY" -> clientIds.put(worker, f[2]);
            case "ACQ" -> acquired(worker, Long.parseLong(f[2]), Long.parseLong(f[3]));
            case "INC" -> {
                increments++;
                Long earlier = tokenByValue.put(Long.parseLong(f[3]), Long.parseLong(f[2]));
                if (earlier != null) {
                    problems.add("the value " + f[3] + " was written twice (tokens " + earlier + " and " + f[2]
                            + "): a lost update");
                }
            }
            case "STALE" -> staleRejected++;
            case "LOST" -> lost++;
            case "REL" -> {
                lastReleaser = worker;
                lastReleaseMicros = Long.parseLong(f[3]);
            }
            case "HOLD" -> {
                heldForKill = worker;
                heldForKillToken = Long.parseLong(f[2]);
                notifyAll();
            }
            default -> {}
        }
    }

    private void acquired(int worker, long token, long micros) {
        acquisitions++;
        if (lastReleaser >= 0 && lastReleaser != worker) {
            handoffMicros.add(micros - lastReleaseMicros);
        }
        lastReleaser = -1;
        holder = worker;
        holderToken = token;
        if (killMicros > 0 && takeoverMicros < 0 && worker != heldForKill) {
            takeoverMicros = micros - killMicros;
            takeoverWorker = worker;
            takeoverToken = token;
            notifyAll();
        }
    }

    synchronized int ready() {
        return clientIds.size();
    }

    synchronized long acquisitions() {
        return acquisitions;
    }

    synchronized long increments() {
        return increments;
    }

    synchronized long staleRejected() {
        return staleRejected;
    }

    synchronized long lost() {
        return lost;
    }

    synchronized int holder() {
        return holder;
    }

    synchronized long holderToken() {
        return holderToken;
    }

    /** Waits until a worker reports it keeps its lease for the kill; returns its token, or -1. */
    synchronized long awaitHeldForKill(int worker, long timeoutMillis) throws InterruptedException {
        return awaitUntil(() -> heldForKill == worker, timeoutMillis) ? heldForKillToken : -1;
    }

    synchronized void killedAt(long micros) {
        killMicros = micros;
        holder = -1;
    }

    /** Waits for another worker to take the lock after the kill; returns the delay in µs, or -1. */
    synchronized long awaitTakeover(long timeoutMillis) throws InterruptedException {
        return awaitUntil(() -> takeoverMicros >= 0, timeoutMillis) ? takeoverMicros : -1;
    }

    /** Waits, holding this object's monitor (which {@link #onLine} notifies), until the condition holds. */
    private boolean awaitUntil(BooleanSupplier condition, long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!condition.getAsBoolean()) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return true;
    }

    synchronized int takeoverWorker() {
        return takeoverWorker;
    }

    synchronized long takeoverToken() {
        return takeoverToken;
    }

    /** The last handoff latency between two processes, in µs, or -1. */
    synchronized long lastHandoffMicros() {
        return handoffMicros.isEmpty() ? -1 : handoffMicros.get(handoffMicros.size() - 1);
    }

    /** A percentile (0..100) of the handoff latencies between processes, in µs, or -1. */
    synchronized long handoffPercentile(int percent) {
        if (handoffMicros.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(handoffMicros);
        Collections.sort(sorted);
        int index = (int) Math.ceil(percent / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    synchronized int handoffs() {
        return handoffMicros.size();
    }

    /**
     * Checks the run: the counter equals the accepted increments, the written values are exactly 1..n
     * and their tokens strictly increase with the value (so no stale token was ever accepted).
     *
     * @param counter the counter's final value in Redis
     * @return the problems found; empty means the verdict passes
     */
    synchronized List<String> verdict(long counter) {
        List<String> found = new ArrayList<>(problems);
        if (counter != increments) {
            found.add("the counter is " + counter + " but " + increments + " increments were accepted");
        }
        long expected = 1;
        long lastToken = Long.MIN_VALUE;
        for (Map.Entry<Long, Long> write : tokenByValue.entrySet()) {
            if (write.getKey() != expected) {
                found.add("the value " + expected + " was never written (next written: " + write.getKey() + ")");
                break;
            }
            if (write.getValue() <= lastToken) {
                found.add("the value " + write.getKey() + " was written with token " + write.getValue()
                        + ", not above the previous write's " + lastToken + ": a stale token was accepted");
                break;
            }
            lastToken = write.getValue();
            expected++;
        }
        return found;
    }
}
