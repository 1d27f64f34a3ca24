package dev.dlock.spi;

/**
 * A script's reply and how many replicas acknowledged its writes ({@code WAIT}'s or {@code
 * WAITAOF}'s count). Immutable.
 *
 * @param reply the script's reply, as {@link Transport#eval} returns it
 * @param acknowledged the replicas that acknowledged, at least 0
 */
public record Replicated(Object reply, int acknowledged) {}
