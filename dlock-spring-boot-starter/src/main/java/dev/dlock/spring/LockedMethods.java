package dev.dlock.spring;

import dev.dlock.LockClient;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.expression.BeanFactoryResolver;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.Schedules;
import org.springframework.util.ClassUtils;

/**
 * Parses and checks the {@link Locked} attributes of a method once, and keeps the result: property
 * placeholders, the name (literal or SpEL, whose variables must be the method's parameters) and the
 * durations. Called for every annotated method when the application starts ({@link
 * LockedMethodsValidator}), so a bad attribute fails the start, and by the interceptor on each call.
 * Thread-safe.
 */
final class LockedMethods {
    private static final String PUBLISHER = "org.reactivestreams.Publisher";
    private static final Duration SHORTEST_LEASE = Duration.ofMillis(100);

    private final Environment environment;
    private final BeanFactoryResolver beans;
    private final ParameterNameDiscoverer parameterNames;
    private final SpelExpressionParser parser = new SpelExpressionParser();
    private final Map<Method, LockedMethod> parsed = new ConcurrentHashMap<>();

    LockedMethods(Environment environment, BeanFactory beanFactory, ParameterNameDiscoverer parameterNames) {
        this.environment = environment;
        this.beans = new BeanFactoryResolver(beanFactory);
        this.parameterNames = parameterNames;
    }

    /**
     * Returns the parsed attributes of {@code method}, the most specific method of the target class.
     *
     * @throws IllegalStateException naming the method, if it is not annotated or an attribute is unusable
     */
    LockedMethod get(Method method) {
        LockedMethod known = parsed.get(method);
        return known != null ? known : parsed.computeIfAbsent(method, this::parse);
    }

    private LockedMethod parse(Method method) {
        Locked locked = AnnotatedElementUtils.findMergedAnnotation(method, Locked.class);
        String where = "@Locked on " + ClassUtils.getQualifiedMethodName(method);
        if (locked == null) {
            throw new IllegalStateException(where + ": the method has no @Locked annotation");
        }
        int modifiers = method.getModifiers();
        if (Modifier.isStatic(modifiers) || Modifier.isFinal(modifiers) || Modifier.isPrivate(modifiers)) {
            throw invalid(
                    where,
                    "the method is "
                            + Modifier.toString(modifiers & (Modifier.STATIC | Modifier.FINAL | Modifier.PRIVATE))
                            + ", so Spring's proxies cannot intercept it and it would run without the lock");
        }
        Class<?> returns = method.getReturnType();
        if (Future.class.isAssignableFrom(returns)
                || CompletionStage.class.isAssignableFrom(returns)
                || isPublisher(returns)) {
            throw invalid(
                    where,
                    "the method returns " + returns.getSimpleName() + ": the lock would be released when the call"
                            + " returns, before the work it started is done. Lock inside the asynchronous work, or"
                            + " use DistributedLock.acquireAsync");
        }
        Duration waitFor = duration(where, "waitFor", locked.waitFor());
        String leaseText = environment.resolveRequiredPlaceholders(locked.leaseTime());
        Duration leaseTime = leaseText.isBlank() ? null : duration(where, "leaseTime", leaseText);
        if (leaseTime != null && leaseTime.compareTo(SHORTEST_LEASE) < 0) {
            throw invalid(where, "leaseTime " + leaseText + " is shorter than 100ms");
        }
        String holdText = environment.resolveRequiredPlaceholders(locked.holdAtLeast());
        Duration holdAtLeast = holdText.isBlank() ? Duration.ZERO : duration(where, "holdAtLeast", holdText);
        if (leaseTime != null && holdAtLeast.compareTo(leaseTime) > 0) {
            throw invalid(
                    where,
                    "holdAtLeast " + holdText + " is longer than the fixed leaseTime " + leaseText
                            + ", which would end first");
        }
        Locked.OnBusy onBusy = locked.onBusy();
        if (onBusy == Locked.OnBusy.DEFAULT) {
            onBusy = isScheduled(method) ? Locked.OnBusy.SKIP : Locked.OnBusy.THROW;
        }
        if (onBusy == Locked.OnBusy.SKIP && returns.isPrimitive() && returns != void.class) {
            throw invalid(
                    where,
                    "onBusy = SKIP"
                            + (locked.onBusy() == Locked.OnBusy.DEFAULT ? " (the default on a @Scheduled method)" : "")
                            + " cannot return a value for " + returns + "; return a wrapper type or an"
                            + " Optional, or use THROW");
        }
        String name = environment.resolveRequiredPlaceholders(locked.name());
        if (name.isBlank()) {
            throw invalid(where, "the name is blank");
        }
        Expression expression = null;
        if (isExpression(name)) {
            expression = expression(where, method, name);
        } else if (name.length() > LockClient.Builder.MAX_NAME_LENGTH) {
            throw invalid(where, "the name is longer than " + LockClient.Builder.MAX_NAME_LENGTH + " characters");
        }
        return new LockedMethod(
                method, name, expression, parameterNames, beans, waitFor, leaseTime, holdAtLeast, onBusy);
    }

    /** Whether Spring's scheduler runs the method ({@code @Scheduled}, repeated or as a meta-annotation). */
    static boolean isScheduled(Method method) {
        return !AnnotatedElementUtils.getMergedRepeatableAnnotations(method, Scheduled.class, Schedules.class)
                .isEmpty();
    }

    /** A name is an expression when it refers to a variable ({@code #}) or holds a string literal ({@code '}). */
    static boolean isExpression(String name) {
        return name.indexOf('#') >= 0 || name.indexOf('\'') >= 0;
    }

    private Expression expression(String where, Method method, String text) {
        SpelExpression expression;
        try {
            expression = (SpelExpression) parser.parseExpression(text);
        } catch (ParseException e) {
            throw invalid(where, "the name " + text + " is not a SpEL expression: " + e.getMessage());
        }
        Set<String> known = new TreeSet<>(List.of("root", "this"));
        String[] names = parameterNames.getParameterNames(method);
        for (int i = 0; i < method.getParameterCount(); i++) {
            known.add("p" + i);
            known.add("a" + i);
            if (names != null) {
                known.add(names[i]);
            }
        }
        List<String> unknown = new ArrayList<>();
        collectUnknown(expression.getAST(), known, unknown);
        if (!unknown.isEmpty()) {
            String hint = names == null
                    ? "the parameter names of " + method.getDeclaringClass().getSimpleName() + " are not known: compile"
                            + " it with -parameters (spring-boot-starter-parent and Boot's Gradle plugin do) or use #p0, #p1, ..."
                    : "the method's parameters are " + String.join(", ", names) + " (or #p0, #p1, ...)";
            throw invalid(where, "the name " + text + " refers to " + String.join(", ", unknown) + ", but " + hint);
        }
        return expression;
    }

    private static void collectUnknown(SpelNode node, Set<String> known, List<String> unknown) {
        if (node instanceof VariableReference) {
            String variable = node.toStringAST();
            if (!known.contains(variable.substring(1))) {
                unknown.add(variable);
            }
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            collectUnknown(node.getChild(i), known, unknown);
        }
    }

    private Duration duration(String where, String attribute, String raw) {
        String text = environment.resolveRequiredPlaceholders(raw).trim();
        Duration duration;
        try {
            duration = DurationStyle.detectAndParse(text);
        } catch (IllegalArgumentException e) {
            throw invalid(
                    where,
                    attribute + " '" + text + "' is not a duration: write 500ms, 5s, 2m, PT1S or a number of"
                            + " milliseconds");
        }
        if (duration.isNegative()) {
            throw invalid(where, attribute + " '" + text + "' is negative");
        }
        return duration;
    }

    private static boolean isPublisher(Class<?> type) {
        for (Class<?> c : ClassUtils.getAllInterfacesForClassAsSet(type)) {
            if (c.getName().equals(PUBLISHER)) {
                return true;
            }
        }
        return type.getName().equals(PUBLISHER);
    }

    private static IllegalStateException invalid(String where, String reason) {
        return new IllegalStateException(where + ": " + reason);
    }
}
