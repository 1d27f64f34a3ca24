package dev.dlock.verify;

import dev.dlock.lettuce.LettuceTransportFactory;
import dev.dlock.resp.RespTransportFactory;
import dev.dlock.spi.TransportFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The transport every dlock client of a run is built on, named rather than discovered, so that a run's figures do not
 * depend on what else is on the class path (the CLI jar carries both, and dlock-resp ranks first for {@code
 * redis://}). A run setting: {@code --transport} on the command line, {@code -Ddlock.verify.transport} for the Maven
 * tiers.
 */
public enum ClientTransport {
    /** dlock's own RESP client, {@code dlock-resp}: the default transport of dlock for standalone Redis. */
    RESP("resp", RespTransportFactory::new),
    /** The Lettuce transport, {@code dlock-lettuce}. */
    LETTUCE("lettuce", LettuceTransportFactory::new);

    /** The label of {@link #DEFAULT}, a constant for annotations such as the CLI's option. */
    public static final String DEFAULT_LABEL = "lettuce";

    /** The transport of a run that names none. */
    public static final ClientTransport DEFAULT = of(DEFAULT_LABEL, "DEFAULT_LABEL");

    private final String label;
    private final Supplier<TransportFactory> factory;

    ClientTransport(String label, Supplier<TransportFactory> factory) {
        this.label = label;
        this.factory = factory;
    }

    /**
     * The name the option takes and the report prints.
     *
     * @return {@code resp} or {@code lettuce}
     */
    public String label() {
        return label;
    }

    /** A new factory of this transport. */
    TransportFactory factory() {
        return factory.get();
    }

    /**
     * The transport of this label.
     *
     * @param label {@code resp} or {@code lettuce} (case-insensitive)
     * @param source what gave the label, for the message: the option or the system property
     * @return the transport
     * @throws IllegalArgumentException naming {@code source} and the labels when {@code label} is neither
     */
    public static ClientTransport of(String label, String source) {
        for (ClientTransport t : values()) {
            if (t.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
                return t;
            }
        }
        throw new IllegalArgumentException(source + " must be one of "
                + String.join(
                        ", ",
                        Arrays.stream(values()).map(ClientTransport::label).toList())
                + ", not '" + label + "'");
    }
}
