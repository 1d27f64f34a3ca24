package dev.dlock.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** Child-JVM program for {@link JvmProcessIT}: prints READY, echoes stdin lines, exits on "EXIT n". */
final class EchoMain {

    private EchoMain() {}

    public static void main(String[] args) throws IOException {
        System.out.println("ARGS " + String.join(",", args));
        System.out.println("PROP " + System.getProperty("echo.prop"));
        System.out.println("READY " + ProcessHandle.current().pid());
        System.err.println("echo-main stderr");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.startsWith("EXIT ")) {
                System.exit(Integer.parseInt(line.substring(5).trim()));
            }
            System.out.println("ECHO " + line);
        }
    }
}
