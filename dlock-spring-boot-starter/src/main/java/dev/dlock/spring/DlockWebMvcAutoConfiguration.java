package dev.dlock.spring;

import dev.dlock.LockBusyException;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.ProblemDetail;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * In a servlet web application with Spring MVC: {@link LockBusyProblemHandler}, which answers a {@link
 * LockBusyException} from a controller with {@code 409 Conflict} and a problem detail. Off with {@code
 * dlock.web.lock-busy-problem=false}, or by defining a {@code LockBusyProblemHandler} bean.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({DispatcherServlet.class, ProblemDetail.class, LockBusyException.class})
@ConditionalOnBooleanProperty(name = "dlock.web.lock-busy-problem", matchIfMissing = true)
public class DlockWebMvcAutoConfiguration {

    /** Creates the configuration; Spring Boot does. */
    public DlockWebMvcAutoConfiguration() {}

    /**
     * The handler of busy locks in controllers.
     *
     * @return the handler
     */
    @Bean
    @ConditionalOnMissingBean
    public LockBusyProblemHandler dlockLockBusyProblemHandler() {
        return new LockBusyProblemHandler();
    }
}
