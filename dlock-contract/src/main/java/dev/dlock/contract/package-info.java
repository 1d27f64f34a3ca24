/**
 * The lock-level contract suite: what every dlock transport must do, as abstract JUnit 5 classes
 * (one per area, each extending {@link dev.dlock.contract.TransportContract}) against real
 * {@code redis-server} processes of the testkit. A transport runs it by one subclass per contract
 * class in its own tests, each naming the transport's factory; surefire runs those subclasses
 * ({@code *IT}) with their inherited tests.
 */
package dev.dlock.contract;
