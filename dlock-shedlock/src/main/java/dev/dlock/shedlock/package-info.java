/**
 * ShedLock on dlock: {@link dev.dlock.shedlock.DlockLockProvider}, a {@code LockProvider} for
 * {@code @SchedulerLock} jobs and ShedLock's {@code LockingTaskExecutor}.
 */
package dev.dlock.shedlock;
