package dev.dlock.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The holds of one failover demo round, as the workers saw them, and what they add up to: holds of
 * different workers that overlapped in time, and tokens handed out again or out of order (stale). A
 * hold ends at its release or when its lease reported itself lost, whichever came first. Thread-safe.
 */
final class DemoHolds {
    /** One hold: who, which token, from when to when (nanoTime). */
    record Hold(int worker, long token, long start, long end) {}

    private final List<Hold> holds = new ArrayList<>();
    private final List<Long> tokensInOrder = new ArrayList<>(); // tokens as holds began
    private int refused;
    private int errors;
    private long lastStart;
    private String lastRefusal = "";
    private final FencedCounter counter = new FencedCounter();

    /** An in-memory resource that accepts a write only with a token at least the last accepted one. */
    static final class FencedCounter {
        private long value;
        private long lastToken;
        private int accepted;
        private int rejected;

        synchronized long read() {
            return value;
        }

        synchronized boolean write(long newValue, long token) {
            if (token < lastToken) {
                rejected++;
                return false;
            }
            lastToken = token;
            value = newValue;
            accepted++;
            return true;
        }

        synchronized long value() {
            return value;
        }

        synchronized int accepted() {
            return accepted;
        }

        synchronized int rejected() {
            return rejected;
        }
    }

    FencedCounter counter() {
        return counter;
    }

    synchronized void started(long token, long start) {
        tokensInOrder.add(token);
        lastStart = start;
    }

    synchronized void ended(int worker, long token, long start, long end) {
        holds.add(new Hold(worker, token, start, end));
    }

    synchronized void refused(String message) {
        refused++;
        lastRefusal = message;
    }

    synchronized void error() {
        errors++;
    }

    synchronized long lastStart() {
        return lastStart;
    }

    synchronized int holdCount() {
        return holds.size();
    }

    synchronized int refusedCount() {
        return refused;
    }

    synchronized String lastRefusal() {
        return lastRefusal;
    }

    synchronized int errorCount() {
        return errors;
    }

    /**
     * How long two or more workers held the lock at once (ms), and how many holds had a part in it.
     *
     * @return {double-held ms, holds involved}
     */
    synchronized long[] overlaps() {
        long doubleHeldNanos = 0;
        boolean[] involved = new boolean[holds.size()];
        List<long[]> edges = new ArrayList<>(); // {time, +1 or -1}
        for (int i = 0; i < holds.size(); i++) {
            Hold a = holds.get(i);
            edges.add(new long[] {a.start(), 1});
            edges.add(new long[] {a.end(), -1});
            for (int j = i + 1; j < holds.size(); j++) {
                Hold b = holds.get(j);
                if (a.worker() != b.worker() && Math.min(a.end(), b.end()) - Math.max(a.start(), b.start()) > 0) {
                    involved[i] = true;
                    involved[j] = true;
                }
            }
        }
        edges.sort((x, y) -> x[0] != y[0] ? Long.compare(x[0], y[0]) : Long.compare(x[1], y[1])); // ends first
        int open = 0;
        long since = 0;
        for (long[] edge : edges) {
            if (open >= 2) {
                doubleHeldNanos += edge[0] - since;
            }
            open += (int) edge[1];
            since = edge[0];
        }
        int count = 0;
        for (boolean b : involved) {
            count += b ? 1 : 0;
        }
        return new long[] {doubleHeldNanos / 1_000_000, count};
    }

    /** Holds whose token was not greater than every token handed out before it. */
    synchronized int staleTokens() {
        int stale = 0;
        long highest = 0;
        for (long token : tokensInOrder) {
            if (token <= highest) {
                stale++;
            }
            highest = Math.max(highest, token);
        }
        return stale;
    }
}
