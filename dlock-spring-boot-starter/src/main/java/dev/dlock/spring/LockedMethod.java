package dev.dlock.spring;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.Expression;
import org.springframework.util.ClassUtils;

/**
 * One {@link Locked} method's attributes, parsed and checked once ({@link LockedMethods}), and the
 * name of its lock for one call; {@code onBusy} is resolved ({@link Locked.OnBusy#DEFAULT} is never
 * kept). Immutable but for whether a skip was logged at INFO yet; thread-safe.
 */
final class LockedMethod {
    private final Method method;
    private final String description;
    private final String name;
    private final Expression nameExpression;
    private final ParameterNameDiscoverer parameterNames;
    private final BeanResolver beans;
    private final Duration waitFor;
    private final Duration leaseTime;
    private final Duration holdAtLeast;
    private final Locked.OnBusy onBusy;
    private final AtomicBoolean skipReported = new AtomicBoolean();

    LockedMethod(
            Method method,
            String name,
            Expression nameExpression,
            ParameterNameDiscoverer parameterNames,
            BeanResolver beans,
            Duration waitFor,
            Duration leaseTime,
            Duration holdAtLeast,
            Locked.OnBusy onBusy) {
        this.method = method;
        this.description = describe(method);
        this.name = name;
        this.nameExpression = nameExpression;
        this.parameterNames = parameterNames;
        this.beans = beans;
        this.waitFor = waitFor;
        this.leaseTime = leaseTime;
        this.holdAtLeast = holdAtLeast;
        this.onBusy = onBusy;
    }

    /** {@code SimpleClassName.method}, as log lines and the endpoint name a method. */
    static String describe(Method method) {
        return ClassUtils.getUserClass(method.getDeclaringClass()).getSimpleName() + "." + method.getName();
    }

    /**
     * Returns the lock name for one call: the literal name, or the expression evaluated over the call.
     *
     * @throws IllegalArgumentException if the expression yields null or a blank name
     */
    String lockName(Object target, Object[] args) {
        if (nameExpression == null) {
            return name;
        }
        MethodBasedEvaluationContext context =
                new MethodBasedEvaluationContext(new LockedRoot(method, args, target), method, args, parameterNames);
        context.setBeanResolver(beans);
        String value = nameExpression.getValue(context, String.class);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("@Locked on " + description + ": the name expression " + name
                    + " yielded " + (value == null ? "null" : "a blank name") + " for this call");
        }
        return value;
    }

    /** What a skipped call returns. */
    Object skipped() {
        return method.getReturnType() == Optional.class ? Optional.empty() : null;
    }

    String description() {
        return description;
    }

    Duration waitFor() {
        return waitFor;
    }

    /** The fixed lease time, or null for a watchdog-renewed lease. */
    Duration leaseTime() {
        return leaseTime;
    }

    Duration holdAtLeast() {
        return holdAtLeast;
    }

    Locked.OnBusy onBusy() {
        return onBusy;
    }

    /** True on the first call only: the first skip is worth an INFO line, the others are routine. */
    boolean firstSkip() {
        return !skipReported.get() && skipReported.compareAndSet(false, true);
    }

    /**
     * {@code #root} of a name expression. Public getters, because SpEL reads them by reflection.
     */
    static final class LockedRoot {
        private final Method method;
        private final Object[] args;
        private final Object target;

        LockedRoot(Method method, Object[] args, Object target) {
            this.method = method;
            this.args = args;
            this.target = target;
        }

        public Method getMethod() {
            return method;
        }

        public String getMethodName() {
            return method.getName();
        }

        public Object[] getArgs() {
            return args;
        }

        public Object getTarget() {
            return target;
        }

        public Class<?> getTargetClass() {
            return target == null ? method.getDeclaringClass() : ClassUtils.getUserClass(target);
        }
    }
}
