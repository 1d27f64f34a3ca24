package dev.dlock.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A tiny JSON parser for the tests: objects become LinkedHashMaps, numbers Longs. Strict enough to fail on junk. */
final class MiniJson {
    private final String text;
    private int at;

    private MiniJson(String text) {
        this.text = text;
    }

    static Object parse(String text) {
        MiniJson json = new MiniJson(text.trim());
        Object value = json.value();
        if (json.at != json.text.length()) {
            throw new IllegalArgumentException("trailing characters at " + json.at + ": " + text);
        }
        return value;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(String text) {
        return (Map<String, Object>) parse(text);
    }

    private Object value() {
        char c = text.charAt(at);
        if (c == '{') {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            if (peek('}')) {
                return map;
            }
            do {
                String key = string();
                expect(':');
                map.put(key, value());
            } while (peek(','));
            expect('}');
            return map;
        }
        if (c == '[') {
            List<Object> list = new ArrayList<>();
            at++;
            if (peek(']')) {
                return list;
            }
            do {
                list.add(value());
            } while (peek(','));
            expect(']');
            return list;
        }
        if (c == '"') {
            return string();
        }
        for (String word : new String[] {"true", "false", "null"}) {
            if (text.startsWith(word, at)) {
                at += word.length();
                return word.equals("null") ? null : Boolean.valueOf(word);
            }
        }
        int start = at;
        while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '-')) {
            at++;
        }
        if (start == at) {
            throw new IllegalArgumentException("unexpected '" + c + "' at " + at + ": " + text);
        }
        return Long.parseLong(text.substring(start, at));
    }

    private String string() {
        expect('"');
        StringBuilder out = new StringBuilder();
        while (text.charAt(at) != '"') {
            char c = text.charAt(at++);
            if (c == '\\') {
                char e = text.charAt(at++);
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                        at += 4;
                    }
                    default -> out.append(e);
                }
            } else {
                out.append(c);
            }
        }
        at++;
        return out.toString();
    }

    private boolean peek(char c) {
        if (text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (text.charAt(at) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + at + ": " + text);
        }
        at++;
    }
}
