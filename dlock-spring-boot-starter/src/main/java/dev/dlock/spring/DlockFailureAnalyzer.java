package dev.dlock.spring;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link DlockStartupException} (Redis not reachable or refusing the credentials when the
 * context starts, a Lettuce or Netty too old for dlock-lettuce) as Spring Boot's "APPLICATION FAILED TO
 * START" block, with the masked Redis URI, where it came from, and the property to fix under "Action:".
 * Registered in {@code META-INF/spring.factories}. Stateless.
 */
final class DlockFailureAnalyzer extends AbstractFailureAnalyzer<DlockStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DlockStartupException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), cause);
    }
}
