/**
 * The lock-level contract suite: what every dlock transport must do, as abstract JUnit 5 classes
 * (one per area, each extending {@link dev.dlock.contract.TransportContract}) against real
 * {@code redis-server} processes of the testkit. A transport runs it with one {@link
 * dev.dlock.contract.ContractSuite} subclass in its own tests ({@code *IT}), naming its factory and,
 * as data, the topologies beyond one server it runs each contract class on.
 */
package dev.dlock.contract;
