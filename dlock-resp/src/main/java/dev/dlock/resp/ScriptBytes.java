package dev.dlock.resp;

import dev.dlock.spi.Script;
import java.nio.charset.StandardCharsets;

/** A script's command prefixes, encoded once: {@code EVALSHA <sha1>} and {@code EVAL <source>}. */
final class ScriptBytes {
    final Script script;
    final byte[] evalsha;
    final byte[] eval;

    ScriptBytes(Script script) {
        this.script = script;
        CommandBuffer b = new CommandBuffer();
        this.evalsha = b.bulk("EVALSHA").bulk(script.sha1()).toByteArray();
        b.reset();
        this.eval = b.bulk("EVAL")
                .bulk(script.source().getBytes(StandardCharsets.UTF_8))
                .toByteArray();
    }
}
