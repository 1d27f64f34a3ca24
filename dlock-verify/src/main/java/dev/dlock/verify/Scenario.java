package dev.dlock.verify;

import dev.dlock.verify.Violation.Checker;
import java.util.List;

/**
 * One scenario of the run: a workload against one lock name, with faults scripted at fixed acquire counts.
 *
 * @param name scenario name, also the lock name
 * @param faults the faults, in order; each round of the long tier repeats them
 * @param variant worker behaviour (honest, or one broken control variant)
 * @param fenceCheck {@code false} for the control whose fence accepts everything
 * @param noPersistence run against the server without persistence (the resource stays on the AOF server)
 * @param holderJvms number of holder JVMs beside the in-process threads
 * @param caughtBy for a control: the checker that must report it; {@code null} for an ordinary scenario
 * @param caughtText for a control: text the catching violation's message must contain, or empty
 * @param documentedOnly checkers whose violations are reported as the documented outcome and not counted
 */
record Scenario(
        String name,
        List<Fault> faults,
        Worker.Variant variant,
        boolean fenceCheck,
        boolean noPersistence,
        int holderJvms,
        Checker caughtBy,
        String caughtText,
        List<Checker> documentedOnly) {

    boolean isControl() {
        return caughtBy != null;
    }

    boolean needsServerFaults() {
        return faults.stream().anyMatch(f -> f.serverSide);
    }

    static Scenario faults(String name, int holderJvms, Fault... faults) {
        return new Scenario(name, List.of(faults), Worker.Variant.HONEST, true, false, holderJvms, null, "", List.of());
    }

    static Scenario control(String name, Worker.Variant variant, boolean fenceCheck, Checker caughtBy, String text) {
        return new Scenario(name, List.of(), variant, fenceCheck, false, 0, caughtBy, text, List.of());
    }

    /** The scenarios of one run, in order; the AOF restart comes late so earlier ones run on an unrestarted server. */
    static List<Scenario> all() {
        return List.of(
                faults("holder-faults", 2, Fault.HOLDER_KILL, Fault.HOLDER_PAUSE),
                faults("network", 1, Fault.PROXY_FREEZE, Fault.PROXY_LATENCY, Fault.CLIENT_KILL),
                faults("server-pause", 1, Fault.SERVER_PAUSE_SHORT, Fault.SERVER_PAUSE_LONG),
                faults("debug-sleep", 1, Fault.DEBUG_SLEEP),
                faults("restart-aof", 1, Fault.RESTART_AOF),
                new Scenario(
                        "restart-no-persistence",
                        List.of(Fault.RESTART_NO_PERSISTENCE),
                        Worker.Variant.HONEST,
                        true,
                        true,
                        1,
                        null,
                        "",
                        List.of(Checker.MUTUAL_EXCLUSION)),
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
                control("control-fence-check-disabled", Worker.Variant.IGNORE_DEADLINE, false, Checker.FENCE, ""));
    }
}
