package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.List;

/**
 * The read-write lock scenarios of the run: workers that take the read lock three times in four and the write lock
 * otherwise, judged by checker 8 ({@link ReadWriteChecker}).
 */
final class ReadWriteScenario {

    /** The text of checker 8's finding the control must produce. */
    static final String CAUGHT_TEXT = "writer beside another holder";

    private ReadWriteScenario() {}

    /**
     * A read-write lock taken by five workers, as the semaphore scenario's (leases {@code t1} and {@code p1}, this one
     * behind the fault proxy; async acquires {@code t2} and {@code o2}) but with {@code o1} a thread holder through the
     * {@code Lock} interface; {@code o1} and {@code o2} on clients of their own. Each asks for the write lock one time in
     * four ({@link Acquirer#WRITE_SHARE}). Read holds only read the resource, write holds
     * read and write it. No holder JVMs (they take the mutex). With {@link Worker.Variant#WRITERS_TAKE_READ_LOCK} it
     * is the negative control: no faults, 200 acquires after the start, and checker 8 must report a writer beside
     * another holder.
     */
    static Scenario of(String name, Worker.Variant variant, Fault... faults) {
        boolean control = variant != Worker.Variant.HONEST;
        List<Scenario.Client> workers = List.of(
                Scenario.Client.of("t1", Acquirer.Style.RW_LEASE, Scenario.Via.DIRECT, 0),
                Scenario.Client.of("t2", Acquirer.Style.RW_ASYNC, Scenario.Via.DIRECT, 0),
                Scenario.Client.of("p1", Acquirer.Style.RW_LEASE, Scenario.Via.PROXY, 0),
                Scenario.Client.of("o1", Acquirer.Style.RW_THREAD, Scenario.Via.OWN, 0),
                Scenario.Client.of("o2", Acquirer.Style.RW_ASYNC, Scenario.Via.OWN, 0));
        return new Scenario(
                name,
                List.of(name),
                List.of(faults),
                variant,
                true,
                false,
                0,
                workers,
                control ? 200 : 0,
                control ? Checker.READ_WRITE : null,
                control ? CAUGHT_TEXT : "",
                List.of(),
                null,
                null,
                null);
    }
}
