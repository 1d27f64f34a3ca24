package dev.dlock.internal.script;

import dev.dlock.internal.util.Lifecycle;
import dev.dlock.internal.util.Log;
import java.util.List;

/**
 * Checks of the server's configuration that dlock's guarantees depend on, run once at connect without
 * blocking it: the findings are logged, never fatal, since an operator may know better.
 */
public final class ServerChecks {
    private ServerChecks() {}

    /**
     * Warns when the server may evict keys: every eviction policy but {@code noeviction} can drop a
     * lock key, all of which have a TTL, under memory pressure (docs/decisions.md, "Eviction").
     */
    public static void warnOnEviction(ScriptRunner scripts, Lifecycle lifecycle, String maskedUri) {
        scripts.eval(Scripts.SERVER_POLICY, new String[0], new String[0]).whenComplete((reply, error) -> {
            if (error != null) {
                if (lifecycle.isClosed()) {
                    return; // closed right after connecting: nothing to warn about
                }
                Log.LOG.log(
                        System.Logger.Level.INFO,
                        "dlock could not read the eviction policy of {0} ({1}); make sure it is noeviction",
                        maskedUri,
                        error.toString());
                return;
            }
            String policy = (String) ((List<?>) reply).get(0);
            if (!policy.isEmpty() && !policy.equals("noeviction")) {
                Log.LOG.log(
                        System.Logger.Level.WARNING,
                        "Redis at {0} runs with maxmemory-policy {1}: under memory pressure it may evict a lock key"
                                + " and let a second holder in; set maxmemory-policy noeviction for dlock's keys",
                        maskedUri,
                        policy);
            }
        });
    }
}
