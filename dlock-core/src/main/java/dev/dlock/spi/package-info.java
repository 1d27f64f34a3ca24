/**
 * The transport SPI: the few Redis operations dlock's algorithms need (evaluate a script, subscribe
 * to channels). A transport such as {@code dlock-lettuce} implements it; applications never call it.
 */
package dev.dlock.spi;
