package dev.dlock.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Spring bean's method while holding a dlock lease, taken before the call and released after
 * it returns or throws.
 *
 * <pre>{@code
 * @Locked(name = "'order:' + #id", waitFor = "2s")
 * public void ship(long id) { ... }
 *
 * @Scheduled(cron = "0 0 * * * *")
 * @Locked(name = "hourly-report", onBusy = Locked.OnBusy.SKIP, holdAtLeast = "30s")
 * public void hourlyReport() { ... }
 * }</pre>
 *
 * <p>The method runs on the calling thread, which can read the lease and its fencing token from
 * {@link LockedContext}. A call from a method that already holds a lock of the same name on the same
 * thread runs within that hold (re-entry), whatever its own attributes say. The annotation works on
 * calls that go through the bean's Spring proxy (not on calls from the bean to itself), on public or
 * protected methods that are neither final nor static; the starter checks every annotated method when
 * the application starts and fails then, naming the method, for an attribute it cannot use.
 *
 * <p>Durations are strings in Spring Boot's formats: {@code 500ms}, {@code 5s}, {@code 2m}, ISO-8601
 * ({@code PT1S}), or a plain number of milliseconds; {@code ${...}} property placeholders are resolved
 * in every attribute.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Locked {

    /**
     * The lock name: a SpEL expression over the method's arguments when it contains {@code #} or
     * {@code '} ({@code "'order:' + #id"}, {@code "'user:' + #p0"}, {@code "'job:' + #root.methodName"}),
     * otherwise the name as it is ({@code "nightly-report"}). Arguments are {@code #p0}, {@code #a0}
     * and, when the class was compiled with {@code -parameters}, their names; {@code #root} has {@code
     * method}, {@code methodName}, {@code args}, {@code target} and {@code targetClass}. An expression
     * must yield a non-blank string of at most 512 characters.
     *
     * @return the name or the expression that makes it
     */
    String name();

    /**
     * How long to wait for the lock when another owner holds it; {@code 0s} (the default) tries once.
     *
     * @return a duration, not negative
     */
    String waitFor() default "0s";

    /**
     * A fixed lease time: the lease is not renewed and ends this long after it was taken, even if the
     * method still runs (Redisson's {@code leaseTime}, ShedLock's {@code lockAtMostFor}). Empty (the
     * default): the client's lease time ({@code dlock.lease-time}), renewed by the watchdog for as long
     * as the method runs.
     *
     * @return a duration of at least 100 ms, or empty
     */
    String leaseTime() default "";

    /**
     * What a call does when the lock stays busy for the whole of {@link #waitFor()}.
     *
     * @return {@link OnBusy#DEFAULT} by default: skip on a {@code @Scheduled} method, throw otherwise
     */
    OnBusy onBusy() default OnBusy.DEFAULT;

    /**
     * The shortest time the lock stays held, counted from when it was taken (ShedLock's {@code
     * lockAtLeastFor}): a method that returns sooner leaves the lock held until then, so that another
     * instance whose clock or schedule is a little off does not run the same job again. Empty or
     * {@code 0s} (the default): released as soon as the method returns. With {@link #leaseTime()} it
     * must not exceed the lease time, and Redis keeps the hold: at the method's return the lease's
     * remaining time is set to the rest of {@code holdAtLeast}, so the hold lasts also if the process
     * dies. Without it, the renewed lease is released by a timer of this application when {@code
     * holdAtLeast} has passed.
     *
     * @return a duration, not negative, or empty
     */
    String holdAtLeast() default "";

    /** What a {@link Locked} call does when the lock stays busy. */
    enum OnBusy {
        /**
         * {@link #SKIP} on a method annotated {@code @Scheduled} (another instance runs this round, as
         * with ShedLock), {@link #THROW} on any other method.
         */
        DEFAULT,
        /** Throws {@link dev.dlock.LockBusyException} naming the lock and the wait; the method does not run. */
        THROW,
        /**
         * Does not run the method and returns {@code Optional.empty()} from a method that returns {@link
         * java.util.Optional}, else {@code null}; for {@code @Scheduled} jobs that one instance runs. The
         * first skip of a method is logged at INFO, the later ones at DEBUG. Not allowed on methods
         * returning a primitive.
         */
        SKIP
    }
}
