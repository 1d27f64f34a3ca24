package dev.dlock.spring;

import dev.dlock.LockBusyException;
import java.net.URI;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Answers a {@link LockBusyException} that leaves a Spring MVC controller (a {@code @Locked} call that
 * found its lock busy) with {@code 409 Conflict}, {@code Retry-After: 1} and an RFC 9457 problem
 * detail naming the lock, instead of a {@code 500} with an ERROR stack trace: a busy lock is the
 * client's cue to try again, not a server fault. Auto-configured in servlet web applications ({@code
 * dlock.web.lock-busy-problem=false} turns it off); at the lowest precedence, so that the application's
 * own {@code @ExceptionHandler} for the exception (or for any exception) in its controllers or
 * advice wins. Stateless.
 */
@RestControllerAdvice
@Order(Ordered.LOWEST_PRECEDENCE)
public class LockBusyProblemHandler {

    /** The problem type of a busy lock. */
    public static final URI TYPE = URI.create("https://dlock.dev/problems/lock-busy");

    /** Creates the handler; the auto-configuration does. */
    public LockBusyProblemHandler() {}

    /**
     * Maps a busy lock to {@code 409 Conflict}.
     *
     * @param e the exception, naming the lock and the wait
     * @return a problem detail with {@code lockName} and {@code waitedMillis}, and {@code Retry-After: 1}
     */
    @ExceptionHandler(LockBusyException.class)
    public ResponseEntity<ProblemDetail> lockBusy(LockBusyException e) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT, e.getMessage());
        problem.setType(TYPE);
        problem.setTitle("Lock busy");
        problem.setProperty("lockName", e.lockName());
        problem.setProperty("waitedMillis", e.waited().toMillis());
        return ResponseEntity.status(HttpStatus.CONFLICT)
                .header(HttpHeaders.RETRY_AFTER, "1")
                .body(problem);
    }
}
