package dev.dlock.bench;

import dev.dlock.testkit.ClusterSetup;
import java.util.function.IntUnaryOperator;

/** Lock names that land on a chosen master of a cluster, so that workers with their own keys spread evenly. */
final class SpreadNames {
    private static final int ATTEMPTS = 100_000;

    private SpreadNames() {}

    /**
     * Returns the first {@code base-n} ({@code n} = 0, 1, ...) whose hash slot {@code master} owns.
     *
     * @param base the name's stem; without braces, so the whole name is hashed
     * @param master the index of the wanted master
     * @param masterOfSlot the index of the master owning a slot
     * @return the name
     * @throws IllegalStateException if no such name is found (the master owns no slot)
     */
    static String name(String base, int master, IntUnaryOperator masterOfSlot) {
        for (int n = 0; n < ATTEMPTS; n++) {
            String name = base + "-" + n;
            if (masterOfSlot.applyAsInt(ClusterSetup.slotOf(name)) == master) {
                return name;
            }
        }
        throw new IllegalStateException("no name " + base + "-n lands on master " + master);
    }
}
