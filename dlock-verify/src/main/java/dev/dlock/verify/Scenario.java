package dev.dlock.verify;

import dev.dlock.verify.Acquirer.Style;
import dev.dlock.verify.Violation.Checker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One scenario of the run: a workload against one or more lock names, with faults scripted at fixed acquire counts.
 *
 * @param name scenario name, also the lock name when there is one; several names are {@code name-a}, {@code name-b}..
 * @param lockNames the lock names of the scenario
 * @param faults the faults, in order; each round of the long tier repeats them
 * @param variant worker behaviour (honest, or one broken control variant)
 * @param fenceCheck {@code false} for the control whose fence accepts everything
 * @param noPersistence run against the server without persistence (the resource stays on the AOF server)
 * @param holderJvms number of holder JVMs beside the in-process threads (they take every name in turn)
 * @param workers the in-process workers
 * @param minAcquires acquires the scenario runs at least after its last fault (0: the run's default)
 * @param caughtBy for a control: the checker that must report it; {@code null} for an ordinary scenario
 * @param caughtText for a control: text the catching violation's message must contain, or empty
 * @param documentedOnly checkers whose violations are reported as the documented outcome and not counted
 * @param failover for a failover scenario, its Sentinel deployment's client setting; {@code null} for the run's server
 * @param semaphore for a semaphore scenario, the permits it is made with and judged by; {@code null} for a mutex
 * @param script for a scripted scenario, its steps (it has no workers, holder JVMs or scheduled faults); else {@code
 *     null}
 */
record Scenario(
        String name,
        List<String> lockNames,
        List<Fault> faults,
        Worker.Variant variant,
        boolean fenceCheck,
        boolean noPersistence,
        int holderJvms,
        List<Client> workers,
        int minAcquires,
        Checker caughtBy,
        String caughtText,
        List<Checker> documentedOnly,
        Failover failover,
        Semaphore semaphore,
        Script script) {

    /**
     * The semaphore of a scenario whose workers take permits ({@link Style#PERMIT}, {@link Style#PERMIT_ASYNC}).
     *
     * @param judged the permits the checkers hold the history to: no more than this many holds overlap
     * @param created the permits the workers' semaphore is made with: {@code judged}, or more for the control whose
     *     semaphore lets more in than the checker allows
     */
    record Semaphore(int judged, int created) {}

    /** The capacity the checkers judge each name by: 1 for a mutex. */
    int capacity() {
        return semaphore == null ? 1 : semaphore.judged();
    }

    /** Whether the workers take a read-write lock's read and write holds (checker 8 judges the overlaps). */
    boolean readWrite() {
        return script != null
                ? script.readWrite()
                : workers.stream().anyMatch(c -> c.style().readWrite());
    }

    /** The permits the workers' semaphore is made with; 0 for a mutex. */
    int permits() {
        return semaphore == null ? 0 : semaphore.created();
    }

    /**
     * A scenario whose lock clients use a Sentinel deployment of its own ({@link FailoverFaults}); no holder JVMs, no
     * proxies.
     *
     * @param replicaAcks the {@code replicaAcks} of every lock client, 0 for none
     * @param partition whether every data node is behind a proxy that {@link Fault#FAILOVER_PARTITION} cuts, and a
     *     {@link Via#MINORITY} client reaches the sentinels through proxies of its own
     */
    record Failover(int replicaAcks, boolean partition) {}

    /** How an in-process worker reaches Redis. */
    enum Via {
        /** the scenario's shared direct client */
        DIRECT,
        /** the scenario's shared client behind the fault proxy (the network faults hit it) */
        PROXY,
        /** a client of its own */
        OWN,
        /** a client of its own behind a proxy that delivers its pub/sub traffic 0.6 TTL late, all the time */
        LAGGED,
        /**
         * a failover scenario's client of its own on the master's side of a partition: its open connections to the
         * master survive {@link Fault#FAILOVER_PARTITION}, its connections to the sentinels do not
         */
        MINORITY
    }

    /**
     * One in-process worker.
     *
     * @param label its client label in the history
     * @param style how it acquires
     * @param via which client it uses
     * @param names indexes into the scenario's lock names, taken in turn
     * @param lease the lease time of its own client, or {@code null} for the run's TTL
     * @param unsafeControl the {@code dlock.unsafe.control} value its own client is built with, or {@code null}
     * @param stalls whether the faults stall it in its hold (besides the worker behind the proxy, which they always may)
     */
    record Client(
            String label,
            Style style,
            Via via,
            List<Integer> names,
            Duration lease,
            String unsafeControl,
            boolean stalls) {
        static Client of(String label, Style style, Via via, Integer... names) {
            return new Client(label, style, via, List.of(names), null, null, false);
        }

        Client lease(Duration leaseTime) {
            return new Client(label, style, via, names, leaseTime, unsafeControl, stalls);
        }

        Client unsafe(String control) {
            return new Client(label, style, via, names, lease, control, stalls);
        }

        Client stalled() {
            return new Client(label, style, via, names, lease, unsafeControl, true);
        }
    }

    static final Duration SHORT_CLIENT_LEASE = Duration.ofMillis(200);

    boolean isControl() {
        return caughtBy != null;
    }

    boolean needsServerFaults() {
        return faults.stream().anyMatch(f -> f.serverSide);
    }

    /** The original workload: t1 tryAcquire, t2 acquireAsync, p1 behind the proxy, all on the one lock name. */
    static List<Client> classic() {
        return List.of(
                Client.of("t1", Style.LEASE, Via.DIRECT, 0),
                Client.of("t2", Style.ASYNC, Via.DIRECT, 0),
                Client.of("p1", Style.LEASE, Via.PROXY, 0));
    }

    /**
     * The wide workload on three names: leases, short fixed leases, slow async stages, thread holds through the
     * {@code Lock} interface (one behind the pub/sub lag, one with a 200 ms client lease), each thread on two or three
     * names in turn.
     */
    static List<Client> wide() {
        return List.of(
                Client.of("t1", Style.LEASE, Via.DIRECT, 0, 1, 2),
                Client.of("s1", Style.SHORT_FIXED, Via.DIRECT, 0, 1),
                Client.of("a1", Style.ASYNC, Via.OWN, 1, 2),
                Client.of("l1", Style.THREAD, Via.LAGGED, 0, 1),
                Client.of("l2", Style.THREAD, Via.OWN, 0, 2).lease(SHORT_CLIENT_LEASE));
    }

    static Scenario faults(String name, int holderJvms, Fault... faults) {
        return new Scenario(
                name,
                List.of(name),
                List.of(faults),
                Worker.Variant.HONEST,
                true,
                false,
                holderJvms,
                classic(),
                0,
                null,
                "",
                List.of(),
                null,
                null,
                null);
    }

    static Scenario wide(String name, boolean noPersistence, Fault... faults) {
        return new Scenario(
                name,
                List.of(name + "-a", name + "-b", name + "-c"),
                List.of(faults),
                Worker.Variant.HONEST,
                true,
                noPersistence,
                1,
                wide(),
                0,
                null,
                "",
                List.of(),
                null,
                null,
                null);
    }

    static Scenario control(String name, Worker.Variant variant, boolean fenceCheck, Checker caughtBy, String text) {
        Style style = variant == Worker.Variant.IGNORE_DEADLINE ? Style.FIXED_TTL : Style.LEASE;
        List<Client> workers = List.of(
                Client.of("t1", style, Via.DIRECT, 0),
                Client.of("t2", style, Via.DIRECT, 0),
                Client.of("t3", style, Via.DIRECT, 0),
                Client.of("t4", style, Via.DIRECT, 0));
        return new Scenario(
                name,
                List.of(name),
                List.of(),
                variant,
                fenceCheck,
                false,
                0,
                workers,
                0,
                caughtBy,
                text,
                List.of(),
                null,
                null,
                null);
    }

    /** A control of a defect of dlock-core itself, re-introduced by {@code -Ddlock.unsafe.control} in one client. */
    /**
     * A control that turns a fixed defect of dlock-core back on ({@code dlock.unsafe.control}). Its defect shows only
     * when a race goes its way, so it runs for {@code acquires}: long enough that a miss by chance is far less likely
     * than one in a million runs (rates in docs/verification.md), since a control that is not caught fails the run.
     */
    static Scenario unsafeControl(
            String name,
            List<Client> workers,
            int lockNames,
            int holderJvms,
            int acquires,
            Checker caughtBy,
            String text) {
        List<String> names = lockNames == 1 ? List.of(name) : List.of(name + "-a", name + "-b");
        return new Scenario(
                name,
                names,
                List.of(),
                Worker.Variant.HONEST,
                true,
                false,
                holderJvms,
                workers,
                acquires,
                caughtBy,
                text,
                List.of(),
                null,
                null,
                null);
    }

    /**
     * A scripted scenario ({@link Script}): its lock names are {@code <name>-<suffix>}; a control names the checker that
     * must catch it.
     */
    static Scenario scripted(String name, Script script, Checker caughtBy, String text) {
        return new Scenario(
                name,
                script.names().stream().map(suffix -> name + "-" + suffix).toList(),
                List.of(),
                Worker.Variant.HONEST,
                true,
                false,
                0,
                List.of(),
                0,
                caughtBy,
                text,
                List.of(),
                null,
                null,
                script);
    }

    /**
     * A failover scenario on its own Sentinel deployment: three watchdog-lease clients (two threads on one client, one
     * on its own) and {@code h1} with fixed leases of one TTL, whose hold a fault may stall with a long fixed lease (the
     * stalled hold of {@link Fault#FAILOVER_HOLD_BACK}). No 100 ms leases: what is measured here is replication, and
     * checker 6's 10% tolerance on so short a lease is within what a client reconnecting after a failover takes. Without
     * acknowledgements a failover may lose a lock, so checkers 1 and 4 are the documented outcome of the kill and
     * pause scenarios, and the hold-back scenario, which loses one for certain, is a control checker 1 must catch;
     * with {@code replicaAcks(1)} every checker counts. The partition scenario adds {@code m1}, a watchdog-lease client
     * on the master's side of the partition (the textbook split brain's other holder).
     */
    static Scenario failover(String name, int replicaAcks, Fault fault) {
        boolean control = replicaAcks == 0 && fault == Fault.FAILOVER_HOLD_BACK;
        boolean partition = fault == Fault.FAILOVER_PARTITION;
        List<Checker> documented =
                replicaAcks == 0 && !control ? List.of(Checker.MUTUAL_EXCLUSION, Checker.TOKEN_ORDER) : List.of();
        List<Client> workers = new ArrayList<>(List.of(
                Client.of("t1", Style.LEASE, Via.DIRECT, 0),
                Client.of("t2", Style.ASYNC, Via.DIRECT, 0),
                Client.of("o1", Style.LEASE, Via.OWN, 0),
                Client.of("h1", Style.FIXED_TTL, Via.OWN, 0).stalled()));
        if (partition) {
            workers.add(Client.of("m1", Style.LEASE, Via.MINORITY, 0));
        }
        return new Scenario(
                name,
                List.of(name),
                List.of(fault),
                Worker.Variant.HONEST,
                true,
                false,
                0,
                List.copyOf(workers),
                0,
                control ? Checker.MUTUAL_EXCLUSION : null,
                control ? "overlap" : "",
                documented,
                new Failover(replicaAcks, partition),
                null,
                null);
    }

    /**
     * The scenarios only the long tier runs: the failovers under load, whose outcome depends on timing (without
     * acknowledgements a lost lock by chance; with them, how soon the rejoined replica acknowledges again). The quick
     * tier runs the two hold-back scenarios, whose outcome is certain either way.
     */
    static final Set<String> LONG_TIER_ONLY = Set.of(
            "failover-kill",
            "failover-pause",
            "failover-partition",
            "failover-kill-acked",
            "failover-pause-acked",
            "failover-partition-acked");

    /** The scenarios of a tier: every one for the long tier, all but {@link #LONG_TIER_ONLY} for the quick one. */
    static List<Scenario> of(boolean longTier) {
        return all().stream()
                .filter(s -> longTier || !LONG_TIER_ONLY.contains(s.name()))
                .toList();
    }

    /** The scenarios of one run, in order; the AOF restart comes late so earlier ones run on an unrestarted server. */
    static List<Scenario> all() {
        return List.of(
                faults("holder-faults", 2, Fault.HOLDER_KILL, Fault.HOLDER_PAUSE),
                faults("network", 1, Fault.PROXY_FREEZE, Fault.PROXY_LATENCY, Fault.CLIENT_KILL),
                faults("server-pause", 1, Fault.SERVER_PAUSE_SHORT, Fault.SERVER_PAUSE_LONG),
                faults("debug-sleep", 1, Fault.DEBUG_SLEEP),
                wide("many-names", false, Fault.PUBSUB_KILL),
                wide("server-errors", true, Fault.SCRIPT_FLUSH, Fault.OOM, Fault.SUBSCRIBE_REFUSED),
                faults("restart-aof", 1, Fault.RESTART_AOF),
                new Scenario(
                        "restart-no-persistence",
                        List.of("restart-no-persistence"),
                        List.of(Fault.RESTART_NO_PERSISTENCE),
                        Worker.Variant.HONEST,
                        true,
                        true,
                        1,
                        classic(),
                        0,
                        null,
                        "",
                        List.of(Checker.MUTUAL_EXCLUSION),
                        null,
                        null,
                        null),
                control(
                        "control-release-without-owner-check",
                        Worker.Variant.NAIVE_RELEASE,
                        true,
                        Checker.MUTUAL_EXCLUSION,
                        "overlap"),
                control(
                        "control-ignores-deadline",
                        Worker.Variant.IGNORE_DEADLINE,
                        true,
                        Checker.MUTUAL_EXCLUSION,
                        "outside its hold"),
                control("control-fence-check-disabled", Worker.Variant.IGNORE_DEADLINE, false, Checker.FENCE, ""),
                unsafeControl(
                        "control-cross-lock-grant",
                        List.of(
                                Client.of("l1", Style.THREAD, Via.LAGGED, 0, 1).unsafe("cross-lock-grant"),
                                Client.of("l3", Style.THREAD, Via.LAGGED, 1, 0).unsafe("cross-lock-grant"),
                                Client.of("t1", Style.LEASE, Via.DIRECT, 0, 1),
                                Client.of("s1", Style.SHORT_FIXED, Via.DIRECT, 1, 0)),
                        2,
                        1,
                        400,
                        Checker.TOKEN_ORDER,
                        ""),
                unsafeControl(
                        "control-expired-handoff",
                        List.of(
                                Client.of("l2", Style.THREAD, Via.OWN, 0)
                                        .lease(SHORT_CLIENT_LEASE)
                                        .unsafe("expired-handoff"),
                                Client.of("l4", Style.THREAD, Via.OWN, 0)
                                        .lease(SHORT_CLIENT_LEASE)
                                        .unsafe("expired-handoff"),
                                Client.of("t1", Style.LEASE, Via.DIRECT, 0),
                                Client.of("t2", Style.LEASE, Via.OWN, 0)),
                        1,
                        0,
                        400,
                        Checker.FRESH_HOLD,
                        ""),
                SemaphoreScenario.of(
                        "semaphore",
                        SemaphoreScenario.PERMITS,
                        SemaphoreScenario.PERMITS,
                        null,
                        "",
                        Fault.PROXY_FREEZE,
                        Fault.CLIENT_KILL,
                        Fault.SERVER_PAUSE_SHORT,
                        Fault.PUBSUB_KILL),
                SemaphoreScenario.of("control-semaphore-over-capacity", 2, 4, Checker.PERMITS, "more than 2 holders"),
                ReadWriteScenario.of(
                        "read-write",
                        Worker.Variant.HONEST,
                        Fault.PROXY_FREEZE,
                        Fault.CLIENT_KILL,
                        Fault.SERVER_PAUSE_SHORT,
                        Fault.PUBSUB_KILL),
                ReadWriteScenario.of("control-rw-writer-takes-read-lock", Worker.Variant.WRITERS_TAKE_READ_LOCK),
                scripted("stale-grant", new StaleGrantScript(null), null, ""),
                scripted(
                        "control-stale-grant",
                        new StaleGrantScript("stale-grant"),
                        Checker.MUTUAL_EXCLUSION,
                        "overlap"),
                scripted("multi-lock-lost-part", new MultiLostPartScript(null), null, ""),
                scripted(
                        "control-multi-lost-part",
                        new MultiLostPartScript("multi-lost-part"),
                        Checker.FRESH_HOLD,
                        "multi-lost-part-a"),
                scripted("redlock-fence-write-back", new RedlockFenceScript(null), null, ""),
                scripted(
                        "control-redlock-partial-fence",
                        new RedlockFenceScript("redlock-partial-fence"),
                        Checker.TOKEN_ORDER,
                        "after r1 had got token"),
                scripted("read-write-long-leases", new LongReadScript(null), null, ""),
                scripted(
                        "control-holders-expiry-lowered",
                        new LongReadScript("holders-expiry-lowered"),
                        Checker.HOLDERS_EXPIRY,
                        "read hold of r1"),
                failover("failover-kill", 0, Fault.FAILOVER_KILL),
                failover("failover-pause", 0, Fault.FAILOVER_PAUSE),
                failover("failover-partition", 0, Fault.FAILOVER_PARTITION),
                failover("control-failover-hold-back", 0, Fault.FAILOVER_HOLD_BACK),
                failover("failover-kill-acked", 1, Fault.FAILOVER_KILL),
                failover("failover-pause-acked", 1, Fault.FAILOVER_PAUSE),
                failover("failover-partition-acked", 1, Fault.FAILOVER_PARTITION),
                failover("failover-hold-back-acked", 1, Fault.FAILOVER_HOLD_BACK));
    }
}
