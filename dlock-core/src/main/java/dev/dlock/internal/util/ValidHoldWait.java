package dev.dlock.internal.util;

/**
 * The last step of every blocking acquire, on the caller's thread: it returns a hold only once the
 * caller's own clock shows it valid for at least half its lease ({@link CallerChecked#keepForCaller},
 * of one Redis or of Redlock); a hold that cannot be shown so is released and the acquire runs again within what is left of its wait
 * (once more at least, for a wait of zero). Stateless; thread-safe.
 */
public final class ValidHoldWait {
    private ValidHoldWait() {}

    /** One acquire, waiting up to the given nanoseconds ({@link ThreadLocking#FOREVER}: no end). */
    @FunctionalInterface
    public interface Attempt<L> {
        /**
         * Runs the acquire and waits for it.
         *
         * @return the hold, or null when the wait ran out
         * @throws InterruptedException if interrupted while an interruptible wait was on
         */
        L run(long waitNanos) throws InterruptedException;
    }

    /**
     * Runs {@code attempt} until it returns a hold the caller can keep, or null.
     *
     * @param check false only for the negative control {@code expired-handoff} (Controls), whose acquires
     *     return holds unchecked so that dlock-verify's checker 6 must catch them: one attempt, as returned
     * @throws InterruptedException as the attempt throws it
     */
    public static <L extends CallerChecked> L await(Ticker ticker, boolean check, long waitNanos, Attempt<L> attempt)
            throws InterruptedException {
        if (!check) {
            return attempt.run(waitNanos);
        }
        long begun = ticker.nanos();
        long wait = waitNanos;
        for (boolean retried = false; ; retried = true) {
            L lease = attempt.run(wait);
            if (lease == null || lease.keepForCaller(false)) {
                return lease;
            }
            if (waitNanos != ThreadLocking.FOREVER) {
                wait = Math.max(0, waitNanos - (ticker.nanos() - begun));
                if (wait == 0 && retried) {
                    return null;
                }
            }
        }
    }
}
