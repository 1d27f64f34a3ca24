package dev.dlock.cli;

import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import dev.dlock.LockException;
import java.util.function.Function;

/**
 * Runs one {@link LockAdmin} call for {@code status}, {@code list} and {@code release --force}: connects, calls,
 * closes, and maps the failures to dlock's exit codes.
 */
final class AdminCall {
    private AdminCall() {}

    /**
     * Runs the call on a client of its own.
     *
     * @param argument what an IllegalArgumentException is about, such as {@code NAME}
     */
    static <T> T run(RedisOptions redis, Function<LockAdmin, T> call, String argument) {
        try (LockClient client = redis.connect()) {
            return call.apply(client.admin());
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCodes.USAGE, "invalid " + argument + ": " + e.getMessage(), e);
        } catch (UnsupportedOperationException e) {
            throw new CliFailure(ExitCodes.USAGE, e.getMessage(), e); // such as list on a Redlock client
        } catch (LockException e) {
            throw RedisFailures.afterConnecting(e);
        }
    }
}
