package dev.dlock.verify;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.Writer;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The history's line format: one flat JSON object of string and integer values per line, written and read with
 * Jackson's streaming API (the same writer as the {@code --json} output of {@code dlock status/list}).
 */
final class Json {
    /** No separator between root values: {@link #line} ends each object with its own newline. */
    private static final JsonFactory FACTORY =
            new JsonFactoryBuilder().rootValueSeparator((String) null).build();

    private Json() {}

    /** A generator for history lines; closing it closes {@code out}. */
    static JsonGenerator lines(Writer out) throws IOException {
        return FACTORY.createGenerator(out);
    }

    /** Writes one line (the object and its newline) without flushing; an {@code invoke} line has no completion. */
    static void line(JsonGenerator out, Op op, String phase) throws IOException {
        out.writeStartObject();
        string(out, "phase", phase);
        string(out, "scenario", op.scenario());
        string(out, "client", op.client());
        out.writeNumberField("pid", op.pid());
        out.writeNumberField("seq", op.seq());
        string(out, "type", op.type());
        out.writeNumberField("invoke", op.invoke());
        if (!"invoke".equals(phase)) {
            out.writeNumberField("complete", op.complete());
            string(out, "outcome", op.outcome());
        }
        out.writeNumberField("token", op.token());
        out.writeNumberField("deadline", op.deadline());
        string(out, "element", op.element());
        out.writeNumberField("timeoutNanos", op.timeoutNanos());
        string(out, "detail", op.detail());
        string(out, "lock", op.lock());
        out.writeNumberField("leaseNanos", op.leaseNanos());
        string(out, "kind", op.kind());
        out.writeEndObject();
        out.writeRaw('\n');
    }

    private static void string(JsonGenerator out, String name, String value) throws IOException {
        out.writeStringField(name, value == null ? "" : value);
    }

    /**
     * Reads one line back: field name to the text of its value (a string's content, an integer's digits).
     *
     * @throws IllegalArgumentException if the line is not one whole JSON object, such as a line torn by a kill
     */
    static Map<String, String> parse(String line) {
        try (JsonParser in = FACTORY.createParser(line)) {
            if (in.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object: " + line);
            }
            Map<String, String> fields = new LinkedHashMap<>();
            while (in.nextToken() == JsonToken.FIELD_NAME) {
                String name = in.currentName();
                JsonToken value = in.nextToken();
                if (value != JsonToken.VALUE_STRING && value != JsonToken.VALUE_NUMBER_INT) {
                    throw new IllegalArgumentException("not a string or integer: " + name + " in " + line);
                }
                fields.put(name, in.getText());
            }
            return fields;
        } catch (IOException e) {
            throw new IllegalArgumentException("not a whole JSON object: " + line, e);
        }
    }
}
