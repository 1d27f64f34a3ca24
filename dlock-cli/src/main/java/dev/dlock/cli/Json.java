package dev.dlock.cli;

import dev.dlock.LockAdmin.LockState;
import java.util.List;

/** A tiny JSON writer for the shapes documented in docs/cli.md; no dependency needed. */
final class Json {
    private Json() {}

    /** One lock: {@code {"name","held","holder","remainingMillis","fencingToken","waiters"}}. */
    static String lock(LockState state) {
        return "{\"name\":" + string(state.name())
                + ",\"held\":" + state.isHeld()
                + ",\"holder\":" + state.holderId().map(Json::string).orElse("null")
                + ",\"remainingMillis\":" + state.remaining().toMillis()
                + ",\"fencingToken\":" + state.fencingToken()
                + ",\"waiters\":" + state.waiters() + "}";
    }

    /** The held locks: {@code {"pattern": "...", "count": n, "locks": [lock, ...]}}. */
    static String list(String pattern, List<LockState> locks) {
        StringBuilder out = new StringBuilder("{\"pattern\":")
                .append(string(pattern))
                .append(",\"count\":")
                .append(locks.size())
                .append(",\"locks\":[");
        for (int i = 0; i < locks.size(); i++) {
            out.append(i == 0 ? "" : ",").append(lock(locks.get(i)));
        }
        return out.append("]}").toString();
    }

    static String string(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
