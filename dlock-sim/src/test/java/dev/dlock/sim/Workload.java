package dev.dlock.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random but plausible key states and calls for the {@link Differential} run: dlock's keys of two lock names in every
 * state a script may meet (absent, dlock's own shapes, wrong types, numbers near 2^53, entries that expired or expire
 * within the sequence, keys with short TTLs), every script with arguments as its header describes them (and in the
 * sharded and cross-slot forms dlock-core derives), and plain commands, with wrong types and argument errors.
 */
final class Workload {
    static final String[] SCRIPTS = ScriptCatalog.COMPOSITION.keySet().toArray(new String[0]);
    private static final String[] OWNERS = {"c1:a", "c1:b", "c2:a", "c3:x"};
    private static final String[] NAMES = {"L:{a}", "L:{b}"};
    private static final String[] SUFFIXES = {"", ":fence", ":q", ":qe", ":holds", ":sq", ":sqe"};
    private static final String CROSS_SLOT_KEYS =
            "local keys = {KEYS[1]}\n" + "local n = #ARGV / 2\n" + "for i = 2, n do keys[i] = ARGV[n + i] end";

    private static final String[] MUTEX_SCRIPTS = {
        "acquire",
        "acquire",
        "acquire",
        "release",
        "release",
        "pass",
        "info",
        "renew",
        "admin-status",
        "admin-force-release",
        "admin-scan"
    };
    private static final String[] SEMAPHORE_SCRIPTS = {
        "semaphore-acquire",
        "semaphore-acquire",
        "semaphore-release",
        "semaphore-release",
        "semaphore-renew",
        "semaphore-set",
        "shared-info",
        "admin-status",
        "admin-force-release"
    };
    private static final String[] RW_SCRIPTS = {
        "rw-acquire",
        "rw-acquire",
        "rw-acquire",
        "rw-release",
        "rw-release",
        "semaphore-renew",
        "shared-info",
        "admin-status",
        "admin-force-release"
    };

    private final Random random;
    private final ScriptCatalog catalog;
    /** A chaotic sequence: wrong types and odd values everywhere; else mostly the shapes dlock itself writes. */
    private final boolean chaos;
    /** Per name: what kind of lock it mostly is in this sequence (mutex, semaphore, rw). */
    private final String[] kinds = new String[NAMES.length];

    private String current = NAMES[0];

    /** Every script source the workload may run (plain, sharded, cross-slot), to compile ahead of the steps. */
    static List<String> sources(ScriptCatalog catalog) {
        List<String> out = new ArrayList<>();
        for (String name : SCRIPTS) {
            String source = catalog.source(name);
            out.add(source);
            out.add(source.replace("redis.call('PUBLISH', ", "redis.call('SPUBLISH', "));
            if (source.contains("local keys = KEYS")) {
                out.add("#!lua flags=allow-cross-slot-keys\n" + source.replace("local keys = KEYS", CROSS_SLOT_KEYS));
            }
        }
        return out;
    }

    /** Every channel a script of this workload may publish on: each name's wake-up channel of each client. */
    static List<String> wakeChannels() {
        List<String> out = new ArrayList<>();
        for (String name : NAMES) {
            for (String client : new String[] {"c1", "c2", "c3"}) {
                out.add(name + ":wake:" + client);
            }
        }
        return out;
    }

    Workload(Random random, ScriptCatalog catalog) {
        this.random = random;
        this.catalog = catalog;
        this.chaos = random.nextInt(100) < 20;
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = pick("mutex", "mutex", "semaphore", "rw");
        }
    }

    private String kind(String name) {
        return kinds[java.util.Arrays.asList(NAMES).indexOf(name)];
    }

    /** The commands that put the keys of both names (and of Redlock) into a random state. */
    List<String[]> setup(long now) {
        List<String[]> out = new ArrayList<>();
        for (String name : NAMES) {
            for (String suffix : SUFFIXES) {
                String key = name + suffix;
                if (random.nextInt(100) < 40 || (!chaos && !belongs(kind(name), suffix))) {
                    continue;
                }
                int wrong = chaos ? random.nextInt(100) : 15 + random.nextInt(85);
                if (wrong < 8) {
                    out.add(new String[] {"SET", key, "junk"});
                } else if (wrong < 12) {
                    out.add(new String[] {"HSET", key, "x", "1"});
                } else if (wrong < 15) {
                    out.add(new String[] {"ZADD", key, "1", "m"});
                } else {
                    out.addAll(plausible(kind(name), suffix, key, now));
                }
                ttl(out, key);
            }
        }
        for (String key : new String[] {"R:{a}", "R:{a}:fence", "x"}) {
            int p = random.nextInt(100);
            if (p < 30) {
                out.add(new String[] {"SET", key, key.endsWith("fence") ? pick("3", "17", "junk") : owner()});
                ttl(out, key);
            } else if (p < 35) {
                out.add(new String[] {"HSET", key, "x", "1"});
            }
        }
        return out;
    }

    /** Whether a lock of this kind has a key of this suffix (the fence: every kind). */
    private static boolean belongs(String kind, String suffix) {
        boolean mutexKey = suffix.equals(":q") || suffix.equals(":qe");
        boolean sharedKey = suffix.equals(":holds") || suffix.equals(":sq") || suffix.equals(":sqe");
        return kind.equals("mutex") ? !sharedKey : !mutexKey;
    }

    private List<String[]> plausible(String kind, String suffix, String key, long now) {
        List<String[]> out = new ArrayList<>();
        switch (suffix) {
            case "":
                if (!chaos && !kind.equals("mutex")) {
                    out.add(new String[] {
                        "SET",
                        key,
                        kind.equals("rw")
                                ? "rw 1000000 1000000"
                                : pick("semaphore 3 3", "semaphore 3 3", "semaphore 3 1")
                    });
                } else if (kind.equals("mutex") || random.nextBoolean()) {
                    List<String> h = new ArrayList<>(List.of("HSET", key, "owner", owner(), "token", token(now)));
                    if (random.nextBoolean()) {
                        h.addAll(List.of("granted", pick("1", waitName(), waitName())));
                    }
                    out.add(h.toArray(new String[0]));
                } else {
                    out.add(new String[] {
                        "SET", key, pick("semaphore 3 3", "semaphore 2 4", "rw 1000000 1000000", "semaphore 3 x")
                    });
                }
                break;
            case ":fence":
                out.add(new String[] {"SET", key, pick(token(now), "5", "abc", "9007199254740990", token(now + 60_000))
                });
                break;
            case ":q":
            case ":sq":
                for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                    out.add(new String[] {"ZADD", key, token(now), owner()});
                }
                break;
            case ":qe":
                for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                    String entry = instant(now) + " " + lease() + (random.nextInt(4) == 0 ? "" : " " + waitName());
                    out.add(new String[] {"HSET", key, owner(), entry});
                }
                break;
            case ":sqe":
                for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                    String entry = instant(now) + " " + lease() + " w" + random.nextInt(9) + " "
                            + pick("1", "2", "3", "1000000");
                    out.add(new String[] {"HSET", key, owner(), entry});
                }
                break;
            default: // ":holds"
                for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
                    String entry = pick("1", "2", "1000000") + " " + token(now) + " " + instant(now)
                            + (random.nextInt(4) == 0 ? " g" : "");
                    out.add(new String[] {"HSET", key, owner(), entry});
                }
        }
        return out;
    }

    private void ttl(List<String[]> out, String key) {
        int p = random.nextInt(100);
        if (p < 30) {
            out.add(new String[] {"PEXPIRE", key, Integer.toString(200 + random.nextInt(500))
            }); // runs out mid-sequence
        } else if (p < 55) {
            out.add(new String[] {"PEXPIRE", key, "60000"});
        }
    }

    /** One script call as EVAL arguments, or a plain command; the first element of the result names it. */
    String[] next() {
        if (random.nextInt(100) < 25) {
            return plainCommand();
        }
        current = NAMES[random.nextInt(NAMES.length)];
        if (random.nextInt(100) < 75) {
            String kind = kind(current);
            String[] fitting =
                    kind.equals("mutex") ? MUTEX_SCRIPTS : kind.equals("rw") ? RW_SCRIPTS : SEMAPHORE_SCRIPTS;
            return script(fitting[random.nextInt(fitting.length)]);
        }
        return script(SCRIPTS[random.nextInt(SCRIPTS.length)]);
    }

    String[] script(String name) {
        String n = current;
        String[] mutex = {n, n + ":fence", n + ":q", n + ":qe"};
        String[] shared = {n, n + ":fence", n + ":holds", n + ":sq", n + ":sqe"};
        String[] all = {n, n + ":fence", n + ":q", n + ":qe", n + ":holds", n + ":sq", n + ":sqe"};
        String[] keys;
        String[] args;
        switch (name) {
            case "acquire" -> {
                keys = mutex;
                String mode = pick("0", "1", "2");
                args = mode.equals("1") || random.nextBoolean()
                        ? new String[] {owner(), lease(), mode, pick("400", "5000"), waitName()}
                        : new String[] {owner(), lease(), mode, pick("400", "5000")}; // as the client sends 0 and 2
            }
            case "release" -> {
                keys = mutex;
                args = new String[] {owner()};
            }
            case "pass" -> {
                keys = mutex;
                args = new String[] {owner(), lease(), pick("1", "3")};
            }
            case "info" -> {
                keys = mutex;
                args = new String[] {pick("0", "2")};
            }
            case "renew", "semaphore-renew" -> {
                int count = 1 + random.nextInt(3);
                keys = new String[count];
                args = new String[count + 1];
                args[0] = lease();
                for (int i = 0; i < count; i++) {
                    String other = NAMES[random.nextInt(NAMES.length)];
                    keys[i] = name.equals("renew") ? other : other + ":holds";
                    args[i + 1] = owner();
                }
                if (random.nextInt(4) == 0) {
                    return crossSlot(name, keys, args);
                }
            }
            case "semaphore-acquire" -> {
                keys = shared;
                args = new String[] {
                    owner(),
                    lease(),
                    pick("0", "1", "2"),
                    pick("400", "5000"),
                    pick("w1", "-"),
                    pick("1", "2", "4"),
                    chaos ? pick("3", "2") : "3"
                };
            }
            case "semaphore-release", "rw-release" -> {
                keys = shared;
                args = new String[] {owner()};
            }
            case "semaphore-set" -> {
                keys = shared;
                args = new String[] {chaos ? pick("3", "2") : "3", pick("1", "3", "5")};
            }
            case "rw-acquire" -> {
                keys = shared;
                args = new String[] {
                    owner(),
                    lease(),
                    pick("0", "1", "2"),
                    pick("400", "5000"),
                    pick("w1", "-"),
                    pick("r", "w"),
                    pick("-", "-", owner())
                };
            }
            case "shared-info" -> {
                keys = shared;
                args = new String[] {pick("semaphore", "rw"), pick("", "3", "1000000"), pick("0", "3")};
            }
            case "admin-status" -> {
                keys = all;
                args = new String[] {pick("0", "3")};
            }
            case "admin-force-release", "admin-purge" -> {
                keys = all;
                args = new String[0];
            }
            case "admin-scan" -> {
                keys = new String[0];
                args = new String[] {"0", pick("L:*", "*", "L:{a}*"), "1000"};
            }
            case "server-policy" -> {
                keys = new String[0];
                args = new String[0];
            }
            case "redlock-acquire", "redlock-info" -> {
                keys = new String[] {"R:{a}", "R:{a}:fence"};
                args = name.equals("redlock-info") ? new String[0] : new String[] {owner(), lease()};
            }
            case "redlock-release" -> {
                keys = new String[] {"R:{a}"};
                args = new String[] {owner()};
            }
            case "redlock-renew" -> {
                keys = new String[] {"R:{a}"};
                args = new String[] {owner(), lease()};
            }
            case "redlock-fence" -> {
                keys = new String[] {"R:{a}:fence"};
                args = new String[] {pick("2", "40", "9007199254740990")};
            }
            case "redlock-force" -> {
                keys = new String[] {"R:{a}", "R:{a}:fence"};
                args = new String[] {pick("force", "purge")};
            }
            default -> throw new IllegalArgumentException(name);
        }
        String source = catalog.source(name);
        if (random.nextInt(4) == 0) { // Scripts.sharded: hand-off messages on sharded pub/sub
            source = source.replace("redis.call('PUBLISH', ", "redis.call('SPUBLISH', ");
        }
        return eval(name, source, keys, args);
    }

    private String[] crossSlot(String name, String[] keys, String[] args) {
        // Scripts.crossSlot: KEYS[1], ARGV[1] lease, ARGV[2..n+1] owners, ARGV[n+2..2n] keys 2..n
        String source = "#!lua flags=allow-cross-slot-keys\n"
                + catalog.source(name).replace("local keys = KEYS", CROSS_SLOT_KEYS);
        List<String> a = new ArrayList<>(List.of(args));
        for (int i = 1; i < keys.length; i++) {
            a.add(keys[i]);
        }
        return eval(name + "-cross-slot", source, new String[] {keys[0]}, a.toArray(new String[0]));
    }

    private static String[] eval(String name, String source, String[] keys, String[] args) {
        List<String> argv = new ArrayList<>(List.of(name, "EVAL", source, Integer.toString(keys.length)));
        argv.addAll(List.of(keys));
        argv.addAll(List.of(args));
        return argv.toArray(new String[0]);
    }

    private String[] plainCommand() {
        String k = randomKey();
        String[][] templates = {
            {"GET", k},
            {"SET", k, "v"},
            {"SET", k, "v", "NX", "GET"},
            {"SET", k, "v", "XX", "PX", "5000"},
            {"SET", k, "v", "KEEPTTL"},
            {"SET", k, "v", "PX", "0"},
            {"SET", k, "v", "PX", "abc"},
            {"SET", k, "v", "BAD"},
            {"DEL", k, randomKey()},
            {"EXISTS", k, k},
            {"TYPE", k},
            {"PTTL", k},
            {"PEXPIRE", k, "3000"},
            {"PEXPIRE", k, "3000", pick("NX", "XX", "GT", "LT")},
            {"PEXPIRE", k, "-1"},
            {"PERSIST", k},
            {"INCR", k},
            {"HGET", k, "owner"},
            {"HSET", k, "f", "v"},
            {"HSET", k, "f"},
            {"HDEL", k, "owner", "f"},
            {"HEXISTS", k, "owner"},
            {"HGETALL", k},
            {"ZADD", k, "NX", "5", "m"},
            {"ZADD", k, "NX", "abc", "m"},
            {"ZREM", k, "m", owner()},
            {"ZRANGE", k, "0", "-1", "WITHSCORES"},
            {"ZRANGE", k, "1", "0"},
            {"ZCARD", k},
            {"FOO", k},
            {"GET"}
        };
        String[] cmd = templates[random.nextInt(templates.length)];
        int how = random.nextInt(3);
        if (how == 0) {
            List<String> argv = new ArrayList<>(List.of(String.join(" ", cmd)));
            argv.addAll(List.of(cmd));
            return argv.toArray(new String[0]);
        }
        StringBuilder lua = new StringBuilder(how == 1 ? "return redis.call(" : "return redis.pcall(");
        for (int i = 0; i < cmd.length; i++) {
            lua.append(i == 0 ? "" : ", ").append('\'').append(cmd[i]).append('\'');
        }
        lua.append(')');
        return eval(lua.toString(), lua.toString(), new String[0], new String[0]);
    }

    private String randomKey() {
        int p = random.nextInt(10);
        if (p == 0) {
            return "x";
        }
        if (p == 1) {
            return pick("R:{a}", "R:{a}:fence");
        }
        return NAMES[random.nextInt(NAMES.length)] + SUFFIXES[random.nextInt(SUFFIXES.length)];
    }

    private String owner() {
        return OWNERS[random.nextInt(chaos ? OWNERS.length : 3)];
    }

    /**
     * A wait's name as a queueing try sends it, {@code <wait id>.<try>}, or a bare wait id (a client from before try
     * numbers): the hand-off keeps it in the lock hash's {@code granted}, and acquire.lua compares the wait ids.
     */
    private String waitName() {
        return "w" + random.nextInt(9) + pick("", ".1", ".2");
    }

    private String lease() {
        return pick("300", "1000", "30000");
    }

    /** An expiry instant in ms: past, within the sequence, or far ahead. */
    private String instant(long now) {
        return Long.toString(now + pick(-5_000L, 200L + random.nextInt(500), 60_000L));
    }

    private String token(long now) {
        return Long.toString((now - random.nextInt(10_000)) * 1000 + random.nextInt(1000));
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }
}
