package dev.dlock.contract;

import dev.dlock.DistributedLock;
import dev.dlock.DistributedReadWriteLock;
import dev.dlock.Lease;
import dev.dlock.LockClient;
import dev.dlock.spi.RedisUri;
import dev.dlock.spi.TransportFactory;
import dev.dlock.testkit.RespConnection;
import java.time.Duration;

/**
 * A read-write lock user in its own JVM, for {@link ReadWriteLockContract}. Mode {@code read} or
 * {@code write}: takes that lock, prints {@code ACQUIRED <token>} and holds it until killed. Mode
 * {@code loop}: {@code n} rounds, every third one a write (offset by the process's index), each
 * counting itself in and out on Redis counters whose scripts record the peak of readers and every
 * violation (a writer beside anyone, a reader beside a writer); then prints {@code DONE}. A looping
 * process prints {@code READY} and starts when it reads a line on its standard input, so that all of
 * them contend at once.
 */
public final class ReadWriteHolderMain {
    /** KEYS readers, writers, peak readers, violations: a reader in. */
    static final String READER_IN = "local r = redis.call('INCR', KEYS[1])\n"
            + "if tonumber(redis.call('GET', KEYS[2]) or '0') > 0 then redis.call('INCR', KEYS[4]) end\n"
            + "if r > tonumber(redis.call('GET', KEYS[3]) or '0') then redis.call('SET', KEYS[3], r) end\n"
            + "return r";
    /** KEYS readers, writers, peak readers, violations: a writer in. */
    static final String WRITER_IN = "local w = redis.call('INCR', KEYS[2])\n"
            + "if w > 1 or tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('INCR', KEYS[4]) end\n"
            + "return w";

    private ReadWriteHolderMain() {}

    /**
     * Entry point.
     *
     * @param args mode ({@code read}, {@code write} or {@code loop}), redis URI, lock name, rounds (loop)
     *     or ignored, lease ms, the class name of the transport's factory, and the process's index (loop)
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        String mode = args[0];
        String uri = args[1];
        String name = args[2];
        int rounds = Integer.parseInt(args[3]);
        TransportFactory transport = HolderProcesses.transport(args[5]);
        LockClient client = LockClient.builder()
                .redisUri(uri)
                .transport(transport)
                .leaseTime(Duration.ofMillis(Long.parseLong(args[4])))
                .commandTimeout(Duration.ofSeconds(30)) // several JVMs start at once on a small host
                .build();
        DistributedReadWriteLock rw = client.readWriteLock(name);
        if (!mode.equals("loop")) {
            Lease lease = (mode.equals("write") ? rw.writeLock() : rw.readLock()).acquire();
            System.out.println("ACQUIRED " + lease.fencingToken());
            HolderProcesses.holdUntilKilled();
            return;
        }
        int index = Integer.parseInt(args[6]);
        RedisUri.HostPort server = RedisUri.parse(uri).hosts().get(0);
        try (RespConnection conn = RespConnection.open(server.host(), server.port(), null, Duration.ofSeconds(10))) {
            HolderProcesses.awaitStart();
            for (int i = 0; i < rounds; i++) {
                boolean write = (i + index) % 3 == 0;
                DistributedLock lock = write ? rw.writeLock() : rw.readLock();
                lock.lock(); // thread-owned holds, so the processes run lock()/unlock() as the threads run acquire()
                try {
                    conn.call(
                            "EVAL",
                            write ? WRITER_IN : READER_IN,
                            "4",
                            readers(name),
                            writers(name),
                            peak(name),
                            violations(name));
                    Thread.sleep(write ? 5 : 20);
                    conn.call("DECR", write ? writers(name) : readers(name));
                } finally {
                    lock.unlock();
                }
            }
            System.out.println("DONE");
        } finally {
            client.close();
        }
    }

    static String readers(String name) {
        return "readers-now:{" + name + "}";
    }

    static String writers(String name) {
        return "writers-now:{" + name + "}";
    }

    static String peak(String name) {
        return "readers-peak:{" + name + "}";
    }

    static String violations(String name) {
        return "violations:{" + name + "}";
    }
}
