package dev.dlock.cli;

import dev.dlock.LockConnectionException;
import dev.dlock.LockException;
import java.util.function.Supplier;

/** Runs a {@link dev.dlock.LockAdmin} call, mapping its failures to dlock's exit codes. */
final class AdminCall {
    private AdminCall() {}

    /**
     * Runs the call.
     *
     * @param argument what an IllegalArgumentException is about, such as {@code NAME}
     */
    static <T> T run(Supplier<T> call, String argument) {
        try {
            return call.get();
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCodes.USAGE, "invalid " + argument + ": " + e.getMessage(), e);
        } catch (LockConnectionException e) {
            throw RedisOptions.unavailable(e);
        } catch (LockException e) {
            throw new CliFailure(ExitCodes.UNAVAILABLE, e.getMessage(), e);
        }
    }
}
