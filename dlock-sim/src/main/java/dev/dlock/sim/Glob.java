package dev.dlock.sim;

import java.nio.charset.StandardCharsets;

/** Redis's glob-style matching ({@code stringmatchlen}: {@code * ? [abc] [^a-z] \x}) and byte-order comparison. */
final class Glob {
    private Glob() {}

    static boolean matches(String pattern, String text) {
        return match(pattern, 0, text, 0);
    }

    @SuppressWarnings("fallthrough")
    private static boolean match(String p, int pi, String s, int si) {
        while (pi < p.length()) {
            char c = p.charAt(pi);
            switch (c) {
                case '*':
                    while (pi + 1 < p.length() && p.charAt(pi + 1) == '*') {
                        pi++;
                    }
                    if (pi + 1 == p.length()) {
                        return true;
                    }
                    for (int k = si; k <= s.length(); k++) {
                        if (match(p, pi + 1, s, k)) {
                            return true;
                        }
                    }
                    return false;
                case '?':
                    if (si >= s.length()) {
                        return false;
                    }
                    si++;
                    break;
                case '[': {
                    if (si >= s.length()) {
                        return false;
                    }
                    pi++;
                    boolean not = pi < p.length() && p.charAt(pi) == '^';
                    if (not) {
                        pi++;
                    }
                    boolean found = false;
                    char t = s.charAt(si);
                    while (pi < p.length() && p.charAt(pi) != ']') {
                        if (p.charAt(pi) == '\\' && pi + 1 < p.length()) {
                            pi++;
                            found |= p.charAt(pi) == t;
                        } else if (pi + 2 < p.length() && p.charAt(pi + 1) == '-') {
                            char lo = p.charAt(pi);
                            char hi = p.charAt(pi + 2);
                            if (lo > hi) {
                                char x = lo;
                                lo = hi;
                                hi = x;
                            }
                            found |= t >= lo && t <= hi;
                            pi += 2;
                        } else {
                            found |= p.charAt(pi) == t;
                        }
                        pi++;
                    }
                    if (found == not) {
                        return false;
                    }
                    si++;
                    break;
                }
                case '\\':
                    if (pi + 1 < p.length()) {
                        pi++;
                    }
                // fall through: the escaped character matches itself
                default:
                    if (si >= s.length() || p.charAt(pi) != s.charAt(si)) {
                        return false;
                    }
                    si++;
            }
            pi++;
        }
        return si == s.length();
    }

    /** Compares as Redis compares strings: by the bytes of their UTF-8 form, unsigned. */
    static int compareBytes(String a, String b) {
        if (isAscii(a) && isAscii(b)) {
            return a.compareTo(b);
        }
        byte[] x = a.getBytes(StandardCharsets.UTF_8);
        byte[] y = b.getBytes(StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(x, y);
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
