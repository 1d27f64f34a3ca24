package dev.dlock.internal;

import dev.dlock.spi.Script;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The Lua scripts, loaded once from resources beside this class. */
final class Scripts {
    static final Script ACQUIRE = loadWithCommon("acquire", Script.Reply.INTEGER);
    static final Script RELEASE = loadWithCommon("release", Script.Reply.INTEGER);
    static final Script PASS = loadWithCommon("pass", Script.Reply.INTEGER);
    static final Script RENEW = load("renew", Script.Reply.ARRAY);
    static final Script INFO = loadWithCommon("info", Script.Reply.ARRAY);
    static final Script SERVER_POLICY = load("server-policy", Script.Reply.ARRAY);

    private Scripts() {}

    /** Loads {@code name.lua}. */
    static Script load(String name, Script.Reply reply) {
        return Script.of(name, source(name), reply);
    }

    /** Loads {@code name.lua} with the shared constants and functions of {@code common.lua} before it. */
    static Script loadWithCommon(String name, Script.Reply reply) {
        return Script.of(name, source("common") + "\n" + source(name), reply);
    }

    private static String source(String name) {
        try (InputStream in = Scripts.class.getResourceAsStream(name + ".lua")) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + name + ".lua");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
