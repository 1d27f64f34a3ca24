package dev.dlock.spring;

import dev.dlock.DistributedLock;
import dev.dlock.Lease;
import dev.dlock.LockBusyException;
import dev.dlock.LockClient;
import java.lang.reflect.Method;
import java.util.Optional;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Runs a {@link Locked} method under its lock: takes a lease (fixed or watchdog-renewed) within
 * {@code waitFor}, makes it current in {@link LockedContext}, runs the method, and hands the lease to
 * {@link LockedHolds} to release. A busy lock throws {@link LockBusyException} or skips the call. The
 * {@link LockClient} is looked up on the first call, so that making the advisor early (auto-proxy
 * creators do) does not connect early. Thread-safe.
 */
final class LockedInterceptor implements MethodInterceptor {
    private static final Log log = LogFactory.getLog(LockedInterceptor.class);

    private final ObjectProvider<LockClient> clients;
    private final LockedMethods methods;
    private final LockedHolds holds;
    private volatile LockClient client;

    LockedInterceptor(ObjectProvider<LockClient> clients, LockedMethods methods, LockedHolds holds) {
        this.clients = clients;
        this.methods = methods;
        this.holds = holds;
    }

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object target = invocation.getThis();
        Class<?> targetClass =
                target == null ? invocation.getMethod().getDeclaringClass() : AopUtils.getTargetClass(target);
        Method method = AopUtils.getMostSpecificMethod(invocation.getMethod(), targetClass);
        LockedMethod locked = methods.get(method);
        String name = locked.lockName(target, invocation.getArguments());
        if (LockedContext.held(name) != null) {
            return invocation.proceed(); // re-entry: runs within the enclosing call's hold
        }
        DistributedLock lock = client().lock(name);
        Optional<Lease> taken = locked.leaseTime() == null
                ? lock.tryAcquire(locked.waitFor())
                : lock.tryAcquire(locked.waitFor(), locked.leaseTime());
        if (taken.isEmpty()) {
            if (locked.onBusy() == Locked.OnBusy.SKIP) {
                if (locked.firstSkip()) {
                    log.info(locked.description() + " skipped: lock '" + name + "' is busy (another instance or"
                            + " caller holds it); later skips of this method are logged at DEBUG");
                } else if (log.isDebugEnabled()) {
                    log.debug(locked.description() + " skipped: lock '" + name + "' is busy");
                }
                return locked.skipped();
            }
            throw new LockBusyException(name, locked.waitFor());
        }
        LockedHolds.Hold hold = holds.open(name, taken.get(), locked);
        LockedContext.Frame frame = LockedContext.enter(name, taken.get());
        try {
            return invocation.proceed();
        } finally {
            LockedContext.exit(frame);
            holds.finish(hold, locked);
        }
    }

    private LockClient client() {
        LockClient known = client;
        if (known == null) {
            known = clients.getObject();
            client = known;
        }
        return known;
    }
}
