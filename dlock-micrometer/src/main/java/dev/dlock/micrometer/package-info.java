/**
 * Micrometer meters for dlock: {@link dev.dlock.micrometer.DlockMetrics}, a {@link
 * dev.dlock.LockListener} to register with {@code LockClient.Builder.listener}.
 */
package dev.dlock.micrometer;
