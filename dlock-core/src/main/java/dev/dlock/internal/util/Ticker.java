package dev.dlock.internal.util;

/** A monotonic clock in nanoseconds, injected so tests can move time without sleeping. */
@FunctionalInterface
public interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    long nanos();
}
