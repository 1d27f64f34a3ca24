package dev.dlock.spring;

import dev.dlock.LockClient;

/**
 * Adjusts the {@link LockClient.Builder} of the auto-configured client after the starter has applied
 * the properties and before it connects: for what has no property, such as the transport or the
 * callback executor.
 *
 * <pre>{@code
 * @Bean
 * DlockClientCustomizer lettuceTransport() {
 *     return builder -> builder.transport(new LettuceTransportFactory());
 * }
 * }</pre>
 *
 * <p>Customizers run in their {@link org.springframework.core.Ordered} order on the thread that makes
 * the client bean.
 */
@FunctionalInterface
public interface DlockClientCustomizer {

    /**
     * Adjusts the builder.
     *
     * @param builder the builder, with the properties applied
     */
    void customize(LockClient.Builder builder);
}
