package dev.dlock.bench;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Who is inside a read-write lock's critical section, counted by the holders themselves: readers in the low 32 bits
 * of one long and writers above them, so that the one atomic add that enters also sees who else is inside. A writer
 * that finds anyone else inside, or a reader that finds a writer, is an exclusion violation: of two holds that
 * overlap, the second to enter sees the first. Kept in memory for the threads of one JVM ({@link #inMemory()}) or in
 * a mapping that processes share ({@link SharedSlots#readWriteCheck()}). Thread-safe.
 */
final class ReadWriteCheck {
    static final long WRITER = 1L << 32;
    private static final long READERS = WRITER - 1;

    /** The two longs a check keeps: who is inside, and the most readers inside at once. */
    interface Cells {
        long addAndGet(long delta);

        void raisePeak(long readers);

        long peak();
    }

    private final Cells cells;

    ReadWriteCheck(Cells cells) {
        this.cells = cells;
    }

    static ReadWriteCheck inMemory() {
        AtomicLong inside = new AtomicLong();
        AtomicLong peak = new AtomicLong();
        return new ReadWriteCheck(new Cells() {
            @Override
            public long addAndGet(long delta) {
                return inside.addAndGet(delta);
            }

            @Override
            public void raisePeak(long readers) {
                peak.accumulateAndGet(readers, Math::max);
            }

            @Override
            public long peak() {
                return peak.get();
            }
        });
    }

    /** Counts a reader in; false if a writer is inside now (an exclusion violation). */
    boolean enterRead() {
        long now = cells.addAndGet(1);
        cells.raisePeak(now & READERS);
        return now < WRITER;
    }

    void leaveRead() {
        cells.addAndGet(-1);
    }

    /** Counts a writer in; false if anyone else, reader or writer, is inside now (an exclusion violation). */
    boolean enterWrite() {
        return cells.addAndGet(WRITER) == WRITER;
    }

    void leaveWrite() {
        cells.addAndGet(-WRITER);
    }

    /** The most readers that were inside at once: above 1 shows that reads were shared. */
    int peakReaders() {
        return (int) cells.peak();
    }
}
