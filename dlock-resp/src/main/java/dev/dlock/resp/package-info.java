/**
 * A dlock transport on its own small RESP2 client: blocking sockets, one pipelined command
 * connection per client written directly by the calling threads, and a lazily opened pub/sub
 * connection. Only {@link dev.dlock.resp.RespTransportFactory} is public.
 */
package dev.dlock.resp;
