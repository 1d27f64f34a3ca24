package dev.dlock.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.dlock.DistributedLock;
import dev.dlock.LockAdmin;
import dev.dlock.LockClient;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.mock.env.MockEnvironment;

/**
 * An unusable {@code @Locked} attribute fails the application's start, naming the method and saying
 * what to do; no Redis is needed (the application's own client is a stub that is never called).
 */
final class LockedValidationTest {
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DlockAutoConfiguration.class))
            .withBean(LockClient.class, StubClient::new);

    private void failsWith(Class<?> bean, String... fragments) {
        runner.withBean(bean)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(IllegalStateException.class)
                        .message()
                        .contains(fragments));
    }

    @Test
    void aDurationThatIsNotOne() {
        failsWith(
                BadWait.class,
                "@Locked on dev.dlock.spring.LockedValidationTest$BadWait.run",
                "waitFor 'soon' is not a duration");
    }

    @Test
    void aNegativeWait() {
        failsWith(NegativeWait.class, "waitFor '-1s' is negative");
    }

    @Test
    void aLeaseShorterThan100ms() {
        failsWith(ShortLease.class, "leaseTime 50ms is shorter than 100ms");
    }

    @Test
    void holdAtLeastLongerThanTheFixedLease() {
        failsWith(HoldPastLease.class, "holdAtLeast 10s is longer than the fixed leaseTime 5s");
    }

    @Test
    void anUnknownVariable() {
        failsWith(UnknownVariable.class, "refers to #orderId", "the method's parameters are id (or #p0, #p1, ...)");
    }

    @Test
    void anExpressionThatDoesNotParse() {
        failsWith(BadExpression.class, "is not a SpEL expression");
    }

    @Test
    void skipOnAMethodReturningAPrimitive() {
        failsWith(SkipInt.class, "onBusy = SKIP cannot return a value for int");
    }

    @Test
    void aFinalMethod() {
        failsWith(FinalMethod.class, "the method is final, so Spring's proxies cannot intercept it");
    }

    @Test
    void anAsynchronousResult() {
        failsWith(AsyncResult.class, "the method returns CompletableFuture");
    }

    @Test
    void aBlankName() {
        failsWith(BlankName.class, "the name is blank");
    }

    @Test
    void withoutParameterNames_theMessageSaysToCompileWithParameters() throws Exception {
        ParameterNameDiscoverer none = new ParameterNameDiscoverer() {
            @Override
            public String[] getParameterNames(Method method) {
                return null;
            }

            @Override
            public String[] getParameterNames(java.lang.reflect.Constructor<?> ctor) {
                return null;
            }
        };
        LockedMethods methods = new LockedMethods(new MockEnvironment(), new DefaultListableBeanFactory(), none);
        Method run = UnknownVariable.class.getMethod("run", long.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> methods.get(run))
                .hasMessageContaining("compile it with -parameters")
                .hasMessageContaining("#p0");
        Method indexed = Indexed.class.getMethod("run", long.class);
        assertThat(methods.get(indexed).lockName(null, new Object[] {7L})).isEqualTo("order:7");
    }

    public static class BadWait {
        @Locked(name = "a", waitFor = "soon")
        public void run() {}
    }

    public static class NegativeWait {
        @Locked(name = "a", waitFor = "-1s")
        public void run() {}
    }

    public static class ShortLease {
        @Locked(name = "a", leaseTime = "50ms")
        public void run() {}
    }

    public static class HoldPastLease {
        @Locked(name = "a", leaseTime = "5s", holdAtLeast = "10s")
        public void run() {}
    }

    public static class UnknownVariable {
        @Locked(name = "'order:' + #orderId")
        public void run(long id) {}
    }

    public static class Indexed {
        @Locked(name = "'order:' + #p0")
        public void run(long id) {}
    }

    public static class BadExpression {
        @Locked(name = "'order:' + #id +")
        public void run(long id) {}
    }

    public static class SkipInt {
        @Locked(name = "a", onBusy = Locked.OnBusy.SKIP)
        public int run() {
            return 1;
        }
    }

    public static class FinalMethod {
        @Locked(name = "a")
        public final void run() {}
    }

    public static class AsyncResult {
        @Locked(name = "a")
        public CompletableFuture<String> run() {
            return CompletableFuture.completedFuture("x");
        }
    }

    public static class BlankName {
        @Locked(name = " ")
        public void run() {}
    }

    /** The application's client; the failing starts never call it. */
    static final class StubClient implements LockClient {
        @Override
        public DistributedLock lock(String name) {
            throw new UnsupportedOperationException();
        }

        @Override
        public LockAdmin admin() {
            throw new UnsupportedOperationException();
        }

        @Override
        public String clientId() {
            return "stub";
        }

        @Override
        public String redisUri() {
            return "redis://stub";
        }

        @Override
        public void close() {}

        @Override
        public java.util.concurrent.CompletableFuture<Void> closeAsync() {
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
    }
}
