package dev.dlock.verify;

import java.util.LinkedHashMap;
import java.util.Map;

/** Hand-written JSON for the flat objects of a history line: string and integer values only. */
final class Json {

    private Json() {}

    static String line(Op op, String phase) {
        StringBuilder out = new StringBuilder(256).append('{');
        field(out, "phase", phase);
        field(out, "scenario", op.scenario());
        field(out, "client", op.client());
        field(out, "pid", op.pid());
        field(out, "seq", op.seq());
        field(out, "type", op.type());
        field(out, "invoke", op.invoke());
        if (!"invoke".equals(phase)) {
            field(out, "complete", op.complete());
            field(out, "outcome", op.outcome());
        }
        field(out, "token", op.token());
        field(out, "deadline", op.deadline());
        field(out, "element", op.element());
        field(out, "timeoutNanos", op.timeoutNanos());
        field(out, "detail", op.detail());
        field(out, "lock", op.lock());
        field(out, "leaseNanos", op.leaseNanos());
        out.setLength(out.length() - 1);
        return out.append('}').toString();
    }

    private static void field(StringBuilder out, String name, long value) {
        out.append('"').append(name).append("\":").append(value).append(',');
    }

    private static void field(StringBuilder out, String name, String value) {
        out.append('"').append(name).append("\":");
        quote(out, value == null ? "" : value);
        out.append(',');
    }

    static void quote(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Parses one flat JSON object whose values are strings or integers. */
    static Map<String, String> parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        int i = skip(line, 0);
        expect(line, i++, '{');
        while (true) {
            i = skip(line, i);
            if (line.charAt(i) == '}') {
                return fields;
            }
            StringBuilder name = new StringBuilder();
            i = readString(line, i, name);
            i = skip(line, i);
            expect(line, i++, ':');
            i = skip(line, i);
            StringBuilder value = new StringBuilder();
            if (line.charAt(i) == '"') {
                i = readString(line, i, value);
            } else {
                while (i < line.length() && "-0123456789".indexOf(line.charAt(i)) >= 0) {
                    value.append(line.charAt(i++));
                }
            }
            fields.put(name.toString(), value.toString());
            i = skip(line, i);
            if (line.charAt(i) == ',') {
                i++;
            }
        }
    }

    private static int readString(String line, int start, StringBuilder out) {
        expect(line, start, '"');
        int i = start + 1;
        while (line.charAt(i) != '"') {
            char c = line.charAt(i++);
            if (c == '\\') {
                char e = line.charAt(i++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(line.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> out.append(e);
                }
            } else {
                out.append(c);
            }
        }
        return i + 1;
    }

    private static int skip(String line, int i) {
        while (i < line.length() && Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        if (i >= line.length()) {
            throw new IllegalArgumentException("truncated JSON line: " + line);
        }
        return i;
    }

    private static void expect(String line, int i, char c) {
        if (line.charAt(i) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + i + " in: " + line);
        }
    }
}
