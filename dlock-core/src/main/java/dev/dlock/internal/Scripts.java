package dev.dlock.internal;

import dev.dlock.spi.Script;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Lua scripts, loaded once from resources beside this class. */
final class Scripts {
    static final Script ACQUIRE = load("acquire", Script.Reply.ARRAY);
    static final Script RELEASE = load("release", Script.Reply.INTEGER);
    static final Script RENEW = load("renew", Script.Reply.ARRAY);
    static final Script INFO = load("info", Script.Reply.ARRAY);

    private Scripts() {}

    static Script load(String name, Script.Reply reply) {
        try (InputStream in = Scripts.class.getResourceAsStream(name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name + ".lua");
            }
            return Script.of(name, new String(in.readAllBytes(), StandardCharsets.UTF_8), reply);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
