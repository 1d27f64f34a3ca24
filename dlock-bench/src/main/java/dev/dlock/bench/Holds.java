package dev.dlock.bench;

import org.HdrHistogram.Histogram;

/**
 * The history of one contended key: for every hold, in hold order (the sequence number taken inside the critical
 * section), when its acquire returned, when its release returned, who held it and how long it waited. From it come
 * the handoff latency (next holder's acquire returned − previous holder's release returned; negative when the next
 * reply overtook the releaser's, counted as 0) and the fairness figures. Thread-safe for distinct sequence numbers.
 */
final class Holds {
    private final long[] acquired;
    private final long[] released;
    private final long[] waited;
    private final int[] holder;

    Holds(int capacity) {
        acquired = new long[capacity];
        released = new long[capacity];
        waited = new long[capacity];
        holder = new int[capacity];
    }

    int capacity() {
        return acquired.length;
    }

    /** Records hold {@code seq}; holder ids start at 1, and 0 marks a hold that was never recorded. */
    void record(int seq, long acquiredAt, long releasedAt, int holderId, long waitNanos) {
        if (seq >= 0 && seq < acquired.length) {
            acquired[seq] = acquiredAt;
            released[seq] = releasedAt;
            waited[seq] = waitNanos;
            holder[seq] = holderId;
        }
    }

    /** The fairness and handoff figures of the holds whose acquire returned within the window. */
    Fairness analyse(Window window, int holds) {
        Histogram handoff = Latency.histogram();
        Histogram wait = Latency.histogram();
        long counted = 0;
        long sameHolder = 0;
        int last = Math.min(holds, acquired.length);
        for (int k = 0; k < last; k++) {
            if (holder[k] == 0 || !window.contains(acquired[k])) {
                continue;
            }
            wait.recordValue(Latency.clamp(waited[k]));
            if (k > 0 && holder[k - 1] != 0) {
                counted++;
                if (holder[k - 1] == holder[k]) {
                    sameHolder++;
                }
                handoff.recordValue(Latency.clamp(acquired[k] - released[k - 1]));
            }
        }
        return new Fairness(handoff, wait, counted == 0 ? Double.NaN : 100.0 * sameHolder / counted);
    }

    /** Handoff latencies, waits, and the share (%) of holds taken by the holder that released last. */
    record Fairness(Histogram handoff, Histogram waits, double reacquireShare) {}
}
