/** The Lettuce transport for dlock; found automatically when this module is on the class path. */
package dev.dlock.lettuce;
