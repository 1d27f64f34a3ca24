/** dlock's implementation. Internal API: it may change without notice; do not use it directly. */
package dev.dlock.internal;
