package dev.dlock.sim;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Events of one kind that took holds of the single server away by their fencing tokens (force-releases, promotions),
 * per name and in order: each with the server's clock (ms) when it happened and the tokens it took. For {@link
 * HoldBook}. Not thread-safe.
 */
final class TokenRemovals {
    private record Removal(long atMs, Set<Long> tokens) {}

    private final Map<String, List<Removal>> byName = new HashMap<>();

    /** An event at {@code atMs} took the holds of {@code name} with {@code tokens} away. */
    void add(String name, long atMs, Set<Long> tokens) {
        byName.computeIfAbsent(name, k -> new ArrayList<>()).add(new Removal(atMs, new HashSet<>(tokens)));
    }

    /** The server's clock (ms) at the first event that took {@code name}'s hold of {@code token} away, or -1. */
    long firstAt(String name, long token) {
        for (Removal r : byName.getOrDefault(name, List.of())) {
            if (r.tokens().contains(token)) {
                return r.atMs();
            }
        }
        return -1;
    }

    /** Forgets that any event took {@code name}'s hold of {@code token} away: it came back. */
    void undo(String name, long token) {
        byName.getOrDefault(name, List.of()).forEach(r -> r.tokens().remove(token));
    }
}
