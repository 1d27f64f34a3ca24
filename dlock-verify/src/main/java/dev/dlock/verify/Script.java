package dev.dlock.verify;

import java.util.List;

/**
 * The steps of a scripted scenario: a few clients ({@link ScriptActor}) driven through one interleaving that a defect
 * needs, with the faults that bring it about timed to the clients' own commands ({@link TcpProxy#nextCommand}), round
 * after round. A random workload reaches such an interleaving rarely or never; a script reaches it every round, so
 * its negative control is caught whatever the seed, and the honest client is shown the same interleaving each time.
 * The checkers judge the history as for any scenario.
 */
interface Script {

    /** The lock names' suffixes: {@code <scenario>-<suffix>}, one fenced resource each. */
    List<String> names();

    /** Whether its holds are a read-write lock's (checker 8 judges the overlaps, checker 1 only the uses). */
    default boolean readWrite() {
        return false;
    }

    /** How many rounds the scenario runs. */
    int rounds();

    /**
     * Runs one round.
     *
     * @param stage the scenario's clients, faults and servers
     * @param round the round, from 0
     * @throws Exception when the round cannot be run (a setup step failed); the scenario then fails
     */
    void round(ScriptStage stage, int round) throws Exception;

    /**
     * A script whose one client carries {@code unsafeControl} (null: honest). Two scripts are equal when they are of
     * one class with one control, whatever state a run left in them, so that a scenario equals itself across calls
     * of {@link Scenario#all()}.
     */
    abstract class WithControl implements Script {
        final String unsafeControl;

        WithControl(String unsafeControl) {
            this.unsafeControl = unsafeControl;
        }

        @Override
        public final boolean equals(Object other) {
            return other != null
                    && other.getClass() == getClass()
                    && java.util.Objects.equals(((WithControl) other).unsafeControl, unsafeControl);
        }

        @Override
        public final int hashCode() {
            return java.util.Objects.hash(getClass().getName(), unsafeControl);
        }

        @Override
        public String toString() {
            return getClass().getSimpleName() + (unsafeControl == null ? "" : "[" + unsafeControl + "]");
        }
    }
}
