package dev.dlock.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read-write benchmarks' exclusion check (W9–W12): it sees every writer overlap and nothing else; no Redis. */
final class ReadWriteCheckTest {
    @Test
    void readers_shareWithoutViolation_andThePeakCountsThem() {
        ReadWriteCheck check = ReadWriteCheck.inMemory();
        assertThat(check.enterRead()).isTrue();
        assertThat(check.enterRead()).isTrue();
        check.leaveRead();
        check.leaveRead();
        assertThat(check.enterWrite()).isTrue();
        check.leaveWrite();
        assertThat(check.peakReaders()).isEqualTo(2);
    }

    @Test
    void writer_enteringWhileAReaderIsInside_isViolation() {
        ReadWriteCheck check = ReadWriteCheck.inMemory();
        assertThat(check.enterRead()).isTrue();
        assertThat(check.enterWrite()).isFalse();
    }

    @Test
    void readerOrWriter_enteringWhileAWriterIsInside_isViolation() {
        ReadWriteCheck check = ReadWriteCheck.inMemory();
        assertThat(check.enterWrite()).isTrue();
        assertThat(check.enterRead()).isFalse();
        check.leaveRead();
        assertThat(check.enterWrite()).isFalse();
    }

    @Test
    void sharedMapping_seesAnotherMappingsHolder(@TempDir Path dir) {
        Path file = dir.resolve("slots");
        ReadWriteCheck first = SharedSlots.open(file).readWriteCheck(); // as two processes map one file
        ReadWriteCheck second = SharedSlots.open(file).readWriteCheck();
        assertThat(first.enterRead()).isTrue();
        assertThat(second.enterRead()).isTrue();
        assertThat(second.peakReaders()).isEqualTo(2);
        first.leaveRead();
        assertThat(second.enterWrite()).isFalse();
    }

    @Test
    void eightThreads_overAReadWriteLock_seeNoViolation() throws Exception {
        assertThat(violations(new ReentrantReadWriteLock())).isZero();
    }

    @Test
    void eightThreads_whoseWritersTakeOnlyTheReadLock_areCaught() throws Exception {
        ReentrantReadWriteLock real = new ReentrantReadWriteLock();
        ReadWriteLock broken = new ReadWriteLock() {
            @Override
            public Lock readLock() {
                return real.readLock();
            }

            @Override
            public Lock writeLock() {
                return real.readLock(); // writers share with readers: what the check is there to catch
            }
        };
        assertThat(violations(broken)).isPositive();
    }

    /** Eight threads, 10% writes, 20 µs inside ({@link ConcurrentHolds}). */
    private static long violations(ReadWriteLock lock) throws Exception {
        ReadWriteCheck check = ReadWriteCheck.inMemory();
        return ConcurrentHolds.violations((id, random) -> {
            boolean write = random.nextInt(100) < 10;
            Lock held = write ? lock.writeLock() : lock.readLock();
            held.lock();
            try {
                boolean alone = write ? check.enterWrite() : check.enterRead();
                ConcurrentHolds.stayInside();
                if (write) {
                    check.leaveWrite();
                } else {
                    check.leaveRead();
                }
                return alone;
            } finally {
                held.unlock();
            }
        });
    }
}
