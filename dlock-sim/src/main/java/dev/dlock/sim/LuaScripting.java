package dev.dlock.sim;

import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.Lua;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Prototype;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.TwoArgFunction;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JseMathLib;

/**
 * Runs scripts as Redis 7.0 does, in LuaJ 3.0 (a Lua 5.2 VM, where Redis runs Lua 5.1; dlock's scripts are 5.1 code
 * that means the same in both, which the differential test checks): the globals a Redis script sees
 * ({@code KEYS}, {@code ARGV}, {@code redis.*}, the base, string, table and math libraries; no io, os, package,
 * luajava, dofile or loadfile: a script cannot reach the host), read-only globals, and Redis's conversions both ways.
 * Each script is compiled once per SHA-1 and reused. Not thread-safe.
 *
 * <p>Conversions, Redis to Lua: integer → number, bulk → string, nil → false, array → table, status → {@code
 * {ok=...}}, error → raised by {@code redis.call}, returned as {@code {err=...}} by {@code redis.pcall}. Lua to Redis:
 * number → integer (truncated), string → bulk, true → 1, false and nil → nil, {@code {err=...}} → error, {@code
 * {ok=...}} → status, any other table → array up to its first nil.
 */
final class LuaScripting {
    private static final Field FILELINE;
    private static final Pattern POSITION = Pattern.compile("^@?user_script:(\\d+):? (.*)$", Pattern.DOTALL);

    static {
        try {
            FILELINE = LuaError.class.getDeclaredField("fileline");
            FILELINE.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Globals globals = new Globals();
    private final Map<String, LuaValue> compiled = new HashMap<>(); // by SHA-1; lookup only
    private final LuaValue randomseed;
    final LuaNumbers.Format format;
    private final Function<String[], Object> commands;

    /** @param commands runs one command called by a script, returning its reply or an {@link ErrorReply} */
    LuaScripting(Function<String[], Object> commands) {
        this.commands = commands;
        globals.load(new BaseLib());
        globals.load(new PackageLib()); // the libraries register themselves in package.loaded; removed below
        globals.load(new TableLib());
        globals.load(new StringLib());
        globals.load(new JseMathLib());
        LoadState.install(globals);
        LuaC.install(globals);
        for (String unsafe : new String[] {"dofile", "loadfile", "require", "package", "module", "print", "luajava"}) {
            globals.rawset(unsafe, LuaValue.NIL);
        }
        LuaTable string = globals.get("string").checktable();
        format = new LuaNumbers.Format(string.get("format"));
        string.rawset("format", format);
        randomseed = globals.get("math").get("randomseed");
        globals.rawset("redis", redisTable());
        LuaTable protect = new LuaTable();
        protect.rawset("__index", new TwoArgFunction() {
            @Override
            public LuaValue call(LuaValue table, LuaValue name) {
                throw new LuaError("Script attempted to access nonexistent global variable '" + name.tojstring() + "'");
            }
        });
        protect.rawset("__newindex", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                throw new LuaError("Attempt to modify a readonly table");
            }
        });
        globals.setmetatable(protect);
    }

    static String sha1(String source) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(source.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every Java platform", e);
        }
    }

    /** Compiles a script (once per SHA-1); returns null, or the error reply of a script that does not compile. */
    ErrorReply compile(String sha, String source) {
        if (compiled.containsKey(sha)) {
            return null;
        }
        String body = source;
        if (body.startsWith("#!")) { // Redis 7's shebang line (flags): not Lua; its line is kept for line numbers
            int end = body.indexOf('\n');
            body = end < 0 ? "" : body.substring(end);
        }
        try {
            LuaValue chunk = globals.load(body, "@user_script");
            withoutTailCalls(((LuaClosure) chunk).p);
            compiled.put(sha, chunk);
            return null;
        } catch (LuaError e) {
            return new ErrorReply("ERR Error compiling script (new function): " + e.getMessage());
        }
    }

    /**
     * Turns every tail call into a call and its return. Lua 5.1 runs a C function called in tail position (as in
     * {@code return redis.call(...)}) inside its caller's frame, so an error it raises names the caller's line; LuaJ
     * runs a tail call after the caller's frame is gone, which would lose the line Redis reports.
     */
    private static void withoutTailCalls(Prototype p) {
        for (int i = 0; i < p.code.length; i++) {
            int op = p.code[i];
            if (Lua.GET_OPCODE(op) == Lua.OP_TAILCALL) {
                p.code[i] = (op & ~Lua.MASK_OP & ~Lua.MASK_C) | (Lua.OP_CALL << Lua.POS_OP); // C = 0: all results
            }
        }
        for (Prototype nested : p.p) {
            withoutTailCalls(nested);
        }
    }

    /** Runs a compiled script; returns its reply (an {@link ErrorReply} for an error). */
    Object run(String sha, String[] keys, String[] args) {
        LuaValue function = compiled.get(sha);
        globals.rawset("KEYS", strings(keys));
        globals.rawset("ARGV", strings(args));
        randomseed.call(LuaValue.valueOf(0)); // math.random gives the same sequence in every run
        try {
            return toRedis(function.call(), true);
        } catch (LuaError e) {
            return raisedError(e, sha);
        } catch (StackOverflowError e) {
            return new ErrorReply("ERR Error running script: stack overflow script: " + sha);
        }
    }

    private static LuaTable strings(String[] values) {
        LuaTable t = new LuaTable(values.length, 0);
        for (int i = 0; i < values.length; i++) {
            t.rawset(i + 1, LuaValue.valueOf(values[i]));
        }
        return t;
    }

    /** The reply of an error raised by a script: Redis 7.0 appends the script and the line that raised it. */
    private static ErrorReply raisedError(LuaError e, String sha) {
        String fileline = fileline(e);
        String line = fileline == null ? "?" : fileline.substring(fileline.lastIndexOf(':') + 1);
        LuaValue object = e.getMessageObject();
        String message;
        if (object != null && object.istable() && object.rawget("err").isstring()) {
            message = object.rawget("err").tojstring();
        } else {
            Matcher m = POSITION.matcher(e.getMessage() == null ? "" : e.getMessage());
            String text = e.getMessage();
            if (m.matches()) {
                line = m.group(1);
                text = m.group(2);
            }
            message = "ERR user_script:" + line + ": " + text;
        }
        return new ErrorReply(oneLine(message) + " script: " + sha + ", on @user_script:" + line + ".");
    }

    private static String fileline(LuaError e) {
        try {
            return (String) FILELINE.get(e);
        } catch (IllegalAccessException x) {
            return null;
        }
    }

    private static String oneLine(String s) {
        return s.replace('\r', ' ').replace('\n', ' ');
    }

    /** A script's (or a table's element's) value as a Redis reply. */
    static Object toRedis(LuaValue v, boolean top) {
        switch (v.type()) {
            case LuaValue.TNUMBER:
                return (long) v.todouble();
            case LuaValue.TSTRING:
                return v.tojstring();
            case LuaValue.TBOOLEAN:
                return v.toboolean() ? 1L : null;
            case LuaValue.TTABLE: {
                LuaValue err = v.rawget("err");
                if (err.isstring()) {
                    return new ErrorReply(oneLine(err.tojstring()));
                }
                LuaValue ok = v.rawget("ok");
                if (ok.isstring()) {
                    return new StatusReply(oneLine(ok.tojstring()));
                }
                List<Object> out = new ArrayList<>();
                for (int i = 1; ; i++) {
                    LuaValue e = v.rawget(i);
                    if (e.isnil()) {
                        return out;
                    }
                    out.add(toRedis(e, false));
                }
            }
            default:
                return null;
        }
    }

    /** A command's reply as a script sees it; an error becomes {@code {err=...}} (raised by the caller for call). */
    static LuaValue toLua(Object reply) {
        if (reply == null) {
            return LuaValue.FALSE;
        }
        if (reply instanceof Long l) {
            return LuaValue.valueOf((double) l);
        }
        if (reply instanceof String s) {
            return LuaValue.valueOf(s);
        }
        if (reply instanceof StatusReply s) {
            LuaTable t = new LuaTable();
            t.rawset("ok", LuaValue.valueOf(s.text()));
            return t;
        }
        if (reply instanceof ErrorReply e) {
            LuaTable t = new LuaTable();
            t.rawset("err", LuaValue.valueOf(e.message()));
            return t;
        }
        List<?> list = (List<?>) reply;
        LuaTable t = new LuaTable(list.size(), 0);
        for (int i = 0; i < list.size(); i++) {
            t.rawset(i + 1, toLua(list.get(i)));
        }
        return t;
    }

    private LuaTable redisTable() {
        LuaTable redis = new LuaTable();
        redis.rawset("call", new RedisCall(true));
        redis.rawset("pcall", new RedisCall(false));
        redis.rawset("error_reply", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue message) {
                return errorTable(message.checkjstring());
            }
        });
        redis.rawset("status_reply", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue text) {
                LuaTable t = new LuaTable();
                t.rawset("ok", LuaValue.valueOf(text.checkjstring()));
                return t;
            }
        });
        redis.rawset("sha1hex", new OneArgFunction() {
            @Override
            public LuaValue call(LuaValue text) {
                return LuaValue.valueOf(sha1(text.checkjstring()));
            }
        });
        redis.rawset("log", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                args.checkint(1);
                return LuaValue.NONE; // the simulated server keeps no log
            }
        });
        redis.rawset("replicate_commands", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaValue.TRUE; // Redis 7 always replicates a script's effects
            }
        });
        redis.rawset("set_repl", new VarArgFunction() {
            @Override
            public Varargs invoke(Varargs args) {
                return LuaValue.NONE;
            }
        });
        String[] constants = {
            "LOG_DEBUG",
            "0",
            "LOG_VERBOSE",
            "1",
            "LOG_NOTICE",
            "2",
            "LOG_WARNING",
            "3",
            "REPL_NONE",
            "0",
            "REPL_AOF",
            "1",
            "REPL_SLAVE",
            "2",
            "REPL_REPLICA",
            "2",
            "REPL_ALL",
            "3"
        };
        for (int i = 0; i < constants.length; i += 2) {
            redis.rawset(constants[i], LuaValue.valueOf(Integer.parseInt(constants[i + 1])));
        }
        redis.rawset("REDIS_VERSION", LuaValue.valueOf(ServerInfo.VERSION));
        redis.rawset("REDIS_VERSION_NUM", LuaValue.valueOf(0x07000f));
        return redis;
    }

    /** {@code redis.error_reply}: Redis 7.0 gives a message without a code the code ERR. */
    static LuaTable errorTable(String message) {
        String s = message.startsWith("-") ? message : "-" + message;
        int space = s.indexOf(' ');
        String code = space < 0 ? "ERR" : s.substring(1, space);
        String text = space < 0 ? s.substring(1) : s.substring(space + 1);
        text = text.replaceAll("[\r\n]+$", "");
        LuaTable t = new LuaTable();
        t.rawset("err", LuaValue.valueOf(code + " " + text));
        return t;
    }

    /** An error raised by {@code redis.call}: its table, with the line of the script that called, as Redis has. */
    static final class CallError extends LuaError {
        private static final long serialVersionUID = 1L;

        CallError(LuaValue table) {
            super(table);
        }
    }

    private final class RedisCall extends VarArgFunction {
        private final boolean raise;

        RedisCall(boolean raise) {
            this.raise = raise;
        }

        @Override
        public Varargs invoke(Varargs args) {
            int n = args.narg();
            Object reply;
            if (n == 0) {
                reply = new ErrorReply("ERR Please specify at least one argument for this redis lib call");
            } else {
                String[] argv = new String[n];
                reply = null;
                for (int i = 0; i < n; i++) {
                    LuaValue a = args.arg(i + 1);
                    if (a.type() == LuaValue.TNUMBER) {
                        argv[i] = LuaNumbers.argument(a.todouble());
                    } else if (a.type() == LuaValue.TSTRING) {
                        argv[i] = a.tojstring();
                    } else {
                        reply = new ErrorReply("ERR Lua redis lib command arguments must be strings or integers");
                        break;
                    }
                }
                if (reply == null) {
                    reply = commands.apply(argv);
                }
            }
            LuaValue value = toLua(reply);
            if (raise && reply instanceof ErrorReply) {
                throw new CallError(value);
            }
            return value;
        }
    }
}
