package dev.dlock.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Longs in a memory-mapped file that several processes on one host share: the owner of the contended lock (0 when
 * free), the hold sequence, for a semaphore (W8) the holders inside and the most inside at once, and for a read-write
 * lock (W11, W12) who is inside ({@link ReadWriteCheck}), and for the multi-locks (W14) the owner of each name of
 * the pool ({@link MultiLockCheck}). Atomic operations on a mapping are atomic across processes, so a second holder
 * inside the critical section is seen at once, without any Redis command.
 */
final class SharedSlots {
    private static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final int OWNER = 0;
    private static final int SEQUENCE = 8;
    private static final int INSIDE = 16; // W8: holders inside the critical section now
    private static final int PEAK = 24; // W8: the most that were inside at once
    private static final int READ_WRITE = 32; // W11, W12: who is inside the read-write lock (ReadWriteCheck)
    private static final int PEAK_READERS = 40;
    private static final int NAME_OWNERS = 48; // W14: one owner per name of MultiLockCheck's pool
    private static final int SIZE = NAME_OWNERS + 8 * MultiLockCheck.POOL;

    private final MappedByteBuffer buffer;

    private SharedSlots(MappedByteBuffer buffer) {
        this.buffer = buffer;
    }

    static SharedSlots open(Path file) {
        try (FileChannel channel =
                FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            return new SharedSlots(channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot map " + file, e);
        }
    }

    /** Claims the owner slot; false if another holder is inside (a mutual exclusion violation). */
    boolean enter(long id) {
        return LONGS.compareAndSet(buffer, OWNER, 0L, id);
    }

    void leave(long id) {
        LONGS.compareAndSet(buffer, OWNER, id, 0L);
    }

    /** Counts a semaphore holder in; false if more than {@code permits} are inside now (an exclusion violation). */
    boolean enterShared(int permits) {
        long now = (long) LONGS.getAndAdd(buffer, INSIDE, 1L) + 1;
        long peak;
        do {
            peak = (long) LONGS.getVolatile(buffer, PEAK);
        } while (now > peak && !LONGS.compareAndSet(buffer, PEAK, peak, now));
        return now <= permits;
    }

    void leaveShared() {
        LONGS.getAndAdd(buffer, INSIDE, -1L);
    }

    int peak() {
        return (int) (long) LONGS.getVolatile(buffer, PEAK);
    }

    /** The read-write check of W11 and W12, kept in this mapping so that every process sees every other's holds. */
    ReadWriteCheck readWriteCheck() {
        return new ReadWriteCheck(new ReadWriteCheck.Cells() {
            @Override
            public long addAndGet(long delta) {
                return (long) LONGS.getAndAdd(buffer, READ_WRITE, delta) + delta;
            }

            @Override
            public void raisePeak(long readers) {
                long peak;
                do {
                    peak = (long) LONGS.getVolatile(buffer, PEAK_READERS);
                } while (readers > peak && !LONGS.compareAndSet(buffer, PEAK_READERS, peak, readers));
            }

            @Override
            public long peak() {
                return (long) LONGS.getVolatile(buffer, PEAK_READERS);
            }
        });
    }

    /** The multi-lock check of W14, kept in this mapping so that every process sees every other's names. */
    MultiLockCheck multiLockCheck() {
        return new MultiLockCheck(
                (name, expected, owner) -> LONGS.compareAndSet(buffer, NAME_OWNERS + 8 * name, expected, owner));
    }

    int nextSequence() {
        return (int) (long) LONGS.getAndAdd(buffer, SEQUENCE, 1L);
    }

    int sequence() {
        return (int) (long) LONGS.getVolatile(buffer, SEQUENCE);
    }
}
