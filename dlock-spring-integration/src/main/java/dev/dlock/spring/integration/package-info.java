/**
 * Spring Integration on dlock: {@link dev.dlock.spring.integration.DlockLockRegistry}, a lock
 * registry for {@code LockRegistryLeaderInitiator} and every other user of {@code LockRegistry}.
 */
package dev.dlock.spring.integration;
