/**
 * The {@code dlock} command-line tool: {@code run}, {@code status}, {@code list}, {@code release
 * --force}, {@code demo} and {@code completion}. Only {@link dev.dlock.cli.DlockMain} is public; see
 * {@code docs/cli.md} for commands, exit codes and JSON shapes.
 */
package dev.dlock.cli;
