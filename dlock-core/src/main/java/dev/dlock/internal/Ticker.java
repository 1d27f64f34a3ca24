package dev.dlock.internal;

/** A monotonic clock in nanoseconds, injected so tests can move time without sleeping. */
@FunctionalInterface
interface Ticker {
    Ticker SYSTEM = System::nanoTime;

    long nanos();
}
