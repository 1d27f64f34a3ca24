package dev.dlock.spring;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;

/**
 * Runs a {@link Locked} method without a lock, for {@code dlock.enabled=false}: the call gets a frame
 * in {@link LockedContext} with a token of this JVM's own counter and no lease, so that {@link
 * LockedContext#currentFencingToken()} answers in it as it does under a lock. Stateless.
 */
final class UnlockedInterceptor implements MethodInterceptor {

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        LockedContext.Frame frame = LockedContext.enterUnlocked();
        try {
            return invocation.proceed();
        } finally {
            LockedContext.exit(frame);
        }
    }
}
