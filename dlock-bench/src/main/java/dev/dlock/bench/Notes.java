package dev.dlock.bench;

/** The fixed part of the report: how each figure is measured. */
final class Notes {
    private Notes() {}

    static final String TEXT = """
            ## How each figure is measured

            - **Peers.** dlock (`LockClient`, thread-owned `lock()`/`unlock()`, watchdog-renewed lease); Redisson \
            `RLock` (`lock()` without a lease time, so its watchdog runs; `lockWatchdogTimeout` = the shared lease); \
            Spring Integration `RedisLockRegistry` over Spring Data Redis's `LettuceConnectionFactory`, in \
            `PUB_SUB_LOCK` and `SPIN_LOCK` modes (`expireAfter` = the shared lease; its renewal scheduler is not set by \
            default, so in W1–W5 its locks are not renewed, which saves it work; W6 sets one); the naive lock \
            (`SET key token NX PX`, polled every 1 ms, released by a compare-and-delete `EVALSHA`); and the floor \
            (one `SET NX PX` and one compare-and-delete `EVALSHA`, no waiting — W1/W2 only). One client object per \
            peer, shared by the threads of a phase; Netty is aligned on the 4.2 line that Lettuce 7.7 needs \
            (Redisson 3.52 is built on 4.1 and runs on it).
            - **Spring's own behaviour worth knowing.** `RedisLockRegistry` hands out one lock object per name and \
            guards it with a local `ReentrantLock`, so the threads of one process queue locally and only one of them \
            talks to Redis at a time (W3/W4); `SPIN_LOCK` sleeps `idleBetweenTries` (default 100 ms) between tries. \
            Both are its defaults and are left as they are.
            - **Windows and order.** Before the first run every peer's uncontended path runs once, unmeasured, so \
            that no peer pays for the JIT alone. Every phase warms up, then measures a fixed window; only pairs whose \
            `lock()` returned in the window count. Pairs/s = those pairs ÷ the window. The peers' order rotates by \
            one place per run. W5 warms up longer than the in-process phases: each of its eight JVMs gets an eighth \
            of the acquisitions, a few hundred per second, so after a short warm-up every peer's waiting and \
            wake-up path would still run interpreted through the window (measured on dlock: 1,300–2,400 pairs/s \
            after 2 s, 2,500–6,200 after 12 s); W5 measures the steady state, as the in-process phases do.
            - **Latency.** `lock()` and `unlock()` durations on `System.nanoTime()`, recorded in HdrHistogram. Under \
            contention the lock latency is the wait.
            - **Handoff** (W3–W5) = the next holder's `lock()` returned − the previous holder's `unlock()` returned, \
            ordered by a sequence number taken inside the critical section. In W5 the processes share one host's \
            `CLOCK_MONOTONIC`. A next holder whose reply arrives before the releaser's counts as 0.
            - **Fairness.** "Re-acquired by releaser" = share of holds whose holder also held the previous hold; \
            "wait p99.9 / mean" and "lock p99 / mean" compare the tail of the wait with its mean.
            - **Redis work.** `INFO commandstats` and `INFO cpu` deltas over the window (our own `INFO` calls left \
            out). Redis 7 also counts commands run inside Lua scripts, so "all cmds / acq" is everything the server \
            executed; "client cmds / acq" are the commands clients sent (round trips, pipelined or not), separated \
            with a short `MONITOR` sample taken during the warm-up (a `[0 lua]` line is a script's); "script calls / \
            acq" are `EVAL`/`EVALSHA` calls. "Redis CPU" is `used_cpu_sys + used_cpu_user`.
            - **Client CPU and allocation** (W1–W4): this JVM's process CPU time and the bytes allocated by all its \
            threads (the peer's I/O threads included), per pair.
            - **Waits the window does not show.** A wait that never ends inside the window is in no percentile, so \
            W3–W5 also count the threads or clients that got no acquisition in the window, and the longest \
            `lock()` that began before the window's end and returned after it (a lost wake-up shows here as a wait \
            near the holder's lease time).
            - **Mutual exclusion** is checked in every run: each holder claims an owner slot with a compare-and-set \
            inside its critical section (in the processes' workloads: in a memory-mapped file they share); a failed \
            claim is a violation. W7 and W8 (a semaphore) count the holders inside instead: one past the permits is a \
            violation, and "most holders at once" shows that the permits were used.
            - **W7, W8** take one permit of a semaphore of 3 as the harness's `Lock`: dlock's `semaphore(name, 3)` \
            (`acquire()`, a watchdog-renewed lease, then `Lease.release()`) and Redisson's \
            `RPermitExpirableSemaphore` (`trySetPermits(3)`, `acquire(lease)`, `release(id)`: the Redisson semaphore \
            whose permits come back after a crash; nothing renews them). W7: 8 threads of one client, 50 µs inside; \
            W8: 8 processes, as W5. Handoff and re-acquire figures follow one holder after another and are not \
            taken.
            - **W9–W12** drive one read-write lock, each hold a read or a write drawn at random (W9, W11: 90% reads; \
            W10, W12: 90% writes), 50 µs inside: dlock's `readWriteLock(name)` and Redisson's `RReadWriteLock` \
            (`getReadWriteLock(name)`), both through `readLock()`/`writeLock()` `lock()`/`unlock()` with the \
            watchdog on. W9, W10: 8 threads of one client; W11, W12: 8 processes, as W5. Inside, one atomic count \
            holds the readers and the writers: a writer that finds anyone else inside, or a reader that finds a \
            writer, is a violation, and any violation fails the run. "Writer wait p99 / mean" is issue 16's tail \
            goal: a writer's wait under the read-heavy stream. Handoff and re-acquire figures are not taken.
            - **W13** takes multi-locks of two distinct names drawn from a pool of 4, in a random order, 8 threads of \
            one client, 50 µs inside: dlock's `multiLock(a, b)` against Redisson's `RedissonMultiLock` over \
            `getLock(a)` and `getLock(b)` (`lock()` without a lease: each name's watchdog renews it), once with the \
            names as drawn and once sorted by the caller: Redisson locks them in the order given, so two holders \
            that drew one pair in opposite orders wait for each other until its try (1.5 s per name: 3 s for two) times out. \
            Each holder claims an owner slot per name; a failed claim is a violation and fails the run. **W14** is \
            W13's workload in 8 client processes of one thread each, started and warmed up as in W5 (own names first, \
            then the W5 phase warm-up, all contending); the owner slots are in the memory-mapped file the processes \
            share, and its goal, as W13's, compares dlock with the faster of Redisson's two orders.
            - **W6** holds 10,000 locks taken by one thread with a 3 s lease (an interval is a third: 1 s), samples \
            one interval with `MONITOR`, then counts the renewal commands clients sent and Redis CPU over the watched \
            intervals. "Leases kept" compares the key count after the watch with the count after acquiring: below \
            100% means leases expired although held.
            - **Machine.** Two cores run the clients, their I/O threads, the JIT and the server at once: a peer that \
            burns client CPU also slows the server. Read the figures as a comparison on one box, not as capacity.
            """;
}
