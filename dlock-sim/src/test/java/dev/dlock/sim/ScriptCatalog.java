package dev.dlock.sim;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * dlock's scripts as dlock-core composes them (its Scripts, RedisLockAdmin, RedlockScripts), read from its {@code
 * .lua} resources on the classpath: a script is its file after the files whose functions it uses. Kept in step by
 * hand: {@link #allScriptsCovered()} fails when a resource is added that no entry uses.
 */
final class ScriptCatalog {
    private static final String DIR = "/dev/dlock/internal/script/";
    private static final String[] RESOURCES = {
        "acquire",
        "admin-force-release",
        "admin-purge",
        "admin-read",
        "admin-scan",
        "admin-status",
        "common",
        "info",
        "pass",
        "queue-read",
        "redlock-acquire",
        "redlock-fence",
        "redlock-force",
        "redlock-info",
        "redlock-release",
        "redlock-renew",
        "release",
        "renew",
        "rw-acquire",
        "rw-release",
        "semaphore-acquire",
        "semaphore-release",
        "semaphore-renew",
        "semaphore-set",
        "server-policy",
        "shared-info",
        "shared"
    };

    /** Script name -> the resources before it, then itself. */
    static final Map<String, String[]> COMPOSITION = new LinkedHashMap<>();

    static {
        for (String s : new String[] {"acquire", "release", "pass"}) {
            COMPOSITION.put(s, new String[] {"common", s});
        }
        for (String s : new String[] {
            "semaphore-acquire", "semaphore-release", "semaphore-set", "rw-acquire", "rw-release", "admin-force-release"
        }) {
            COMPOSITION.put(s, new String[] {"common", "shared", s});
        }
        COMPOSITION.put("info", new String[] {"common", "queue-read", "info"});
        COMPOSITION.put("shared-info", new String[] {"common", "shared", "queue-read", "shared-info"});
        COMPOSITION.put("admin-status", new String[] {"common", "queue-read", "admin-read", "admin-status"});
        COMPOSITION.put("admin-scan", new String[] {"common", "queue-read", "admin-read", "admin-scan"});
        for (String s : new String[] {
            "renew",
            "server-policy",
            "semaphore-renew",
            "admin-purge",
            "redlock-acquire",
            "redlock-release",
            "redlock-renew",
            "redlock-fence",
            "redlock-info",
            "redlock-force"
        }) {
            COMPOSITION.put(s, new String[] {s});
        }
    }

    private final Map<String, String> sources = new LinkedHashMap<>();

    ScriptCatalog() {
        for (Map.Entry<String, String[]> e : COMPOSITION.entrySet()) {
            StringBuilder text = new StringBuilder();
            String[] parts = e.getValue();
            for (int i = 0; i < parts.length; i++) {
                text.append(resource(parts[i]));
                if (i < parts.length - 1) {
                    text.append('\n');
                }
            }
            sources.put(e.getKey(), text.toString());
        }
    }

    String source(String name) {
        String s = sources.get(name);
        if (s == null) {
            throw new IllegalArgumentException("no script " + name);
        }
        return s;
    }

    /** Whether every .lua resource of dlock-core is part of some composed script. */
    static boolean allScriptsCovered() {
        for (String r : RESOURCES) {
            boolean used = false;
            for (String[] parts : COMPOSITION.values()) {
                used |= java.util.Arrays.asList(parts).contains(r);
            }
            if (!used) {
                return false;
            }
        }
        return true;
    }

    static String resource(String name) {
        try (InputStream in = ScriptCatalog.class.getResourceAsStream(DIR + name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("no resource " + DIR + name + ".lua");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
