package dev.dlock.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.dlock.LockAdmin.ForcedUnlock;
import dev.dlock.LockAdmin.Holder;
import dev.dlock.LockAdmin.Waiter;
import dev.dlock.LockInfo;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The {@code --json} shapes documented in docs/cli.md, written with Jackson's streaming API (jackson-core, which
 * dlock-verify writes its history lines with too).
 */
final class Json {
    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {}

    /**
     * One lock name: {@code {"name","kind","held","holder","remainingMillis","fencingToken","waiters","capacity",
     * "holders":[{"owner","weight","fencingToken","remainingMillis"}],"queue":[{"owner","weight"}]}}.
     */
    static String lock(LockInfo state) {
        return write(out -> lock(out, state));
    }

    /** The held locks: {@code {"pattern": "...", "count": n, "locks": [lock, ...]}}. */
    static String list(String pattern, List<LockInfo> locks) {
        return write(out -> {
            out.writeStartObject();
            out.writeStringField("pattern", pattern);
            out.writeNumberField("count", locks.size());
            out.writeArrayFieldStart("locks");
            for (LockInfo state : locks) {
                lock(out, state);
            }
            out.writeEndArray();
            out.writeEndObject();
        });
    }

    /**
     * What {@code release --force} did: {@code {"name": "...", "removed": bool, "handedOver": bool, "lock": lock or
     * null}}; {@code lock} is the name as it was before the removal, with the holders removed.
     */
    static String forced(String name, ForcedUnlock forced) {
        return write(out -> {
            out.writeStartObject();
            out.writeStringField("name", name);
            out.writeBooleanField("removed", forced.removed().isPresent());
            out.writeBooleanField("handedOver", forced.handedOver());
            out.writeFieldName("lock");
            if (forced.removed().isPresent()) {
                lock(out, forced.removed().get());
            } else {
                out.writeNull();
            }
            out.writeEndObject();
        });
    }

    private static void lock(JsonGenerator out, LockInfo state) throws IOException {
        out.writeStartObject();
        out.writeStringField("name", state.name());
        out.writeBooleanField("held", state.isLocked());
        out.writeStringField("holder", state.holderId().orElse(null)); // null when free
        out.writeNumberField("remainingMillis", state.remaining().toMillis());
        out.writeNumberField("fencingToken", state.fencingToken());
        out.writeNumberField("waiters", state.waiters());
        out.writeStringField("kind", state.kind());
        out.writeNumberField("capacity", state.capacity());
        out.writeArrayFieldStart("holders");
        for (Holder holder : state.holders()) {
            out.writeStartObject();
            out.writeStringField("owner", holder.ownerId());
            out.writeNumberField("weight", holder.weight());
            out.writeNumberField("fencingToken", holder.fencingToken());
            out.writeNumberField("remainingMillis", holder.remaining().toMillis());
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeArrayFieldStart("queue");
        for (Waiter waiter : state.queue()) {
            out.writeStartObject();
            out.writeStringField("owner", waiter.ownerId());
            out.writeNumberField("weight", waiter.weight());
            out.writeEndObject();
        }
        out.writeEndArray();
        out.writeEndObject();
    }

    private interface Shape {
        void writeTo(JsonGenerator out) throws IOException;
    }

    private static String write(Shape shape) {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = FACTORY.createGenerator(text)) {
            shape.writeTo(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return text.toString();
    }
}
