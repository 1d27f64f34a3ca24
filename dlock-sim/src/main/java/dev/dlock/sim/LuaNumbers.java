package dev.dlock.sim;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.lib.VarArgFunction;

/**
 * Where LuaJ's numbers print unlike Redis's Lua 5.1 and Redis: a Lua number passed to {@code redis.call} becomes
 * the text C's {@code %.17g} gives, and {@code string.format('%d', x)} takes a 64-bit integer (LuaJ's takes 32 bits,
 * so it would mangle a fencing token of server time in µs).
 */
final class LuaNumbers {
    private LuaNumbers() {}

    /** C's {@code printf("%.17g", d)}. */
    static String g17(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal b = new BigDecimal(d).round(new MathContext(17));
        int exponent = b.precision() - b.scale() - 1;
        if (exponent < -4 || exponent >= 17) {
            BigDecimal mantissa = b.movePointLeft(exponent).stripTrailingZeros();
            String m = mantissa.toPlainString();
            String e = String.format(Locale.ROOT, "%s%02d", exponent < 0 ? "-" : "+", Math.abs(exponent));
            return m + "e" + e;
        }
        String plain = b.stripTrailingZeros().toPlainString();
        return plain;
    }

    /** The text of a Lua number as an argument of {@code redis.call}. */
    static String argument(double d) {
        if (d == Math.rint(d) && Math.abs(d) < 1e17) {
            return Long.toString((long) d);
        }
        return g17(d);
    }

    /**
     * {@code string.format} with Lua 5.1's {@code %d} and {@code %i} (a 64-bit integer, the number truncated as C's
     * cast truncates); every other conversion is formatted by LuaJ's own {@code string.format}.
     */
    static final class Format extends VarArgFunction {
        private final LuaValue luajFormat;
        /** False; a test sets it to run LuaJ's own 32-bit {@code %d} on purpose, as a negative control. */
        boolean broken;

        Format(LuaValue luajFormat) {
            this.luajFormat = luajFormat;
        }

        @Override
        public Varargs invoke(Varargs args) {
            LuaString fmt = args.checkstring(1);
            String f = fmt.tojstring();
            if (broken || (f.indexOf('d') < 0 && f.indexOf('i') < 0)) {
                return luajFormat.invoke(args);
            }
            StringBuilder out = new StringBuilder();
            int arg = 2;
            for (int i = 0; i < f.length(); i++) {
                char c = f.charAt(i);
                if (c != '%') {
                    out.append(c);
                    continue;
                }
                if (i + 1 < f.length() && f.charAt(i + 1) == '%') {
                    out.append('%');
                    i++;
                    continue;
                }
                int start = i;
                i++;
                while (i < f.length() && "-+ #0123456789.".indexOf(f.charAt(i)) >= 0) {
                    i++;
                }
                if (i >= f.length()) {
                    throw new LuaError("invalid option '%' to 'format'");
                }
                String spec = f.substring(start, i + 1);
                char conversion = f.charAt(i);
                if (conversion == 'd' || conversion == 'i') {
                    long v = (long) args.checkdouble(arg++);
                    out.append(String.format(Locale.ROOT, spec.substring(0, spec.length() - 1) + "d", v));
                } else {
                    out.append(luajFormat
                            .invoke(LuaValue.varargsOf(LuaValue.valueOf(spec), args.arg(arg++)))
                            .tojstring(1));
                }
            }
            return LuaValue.valueOf(out.toString());
        }
    }
}
