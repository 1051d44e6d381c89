/**
 * Shutdown of an HTTP(S) server that always ends within a bound.
 *
 * Node's `server.close()` + `closeIdleConnections()` leaves open every connection that has not yet
 * sent a request: a TLS client that handshook and went silent (what an API server leaves behind after
 * a webhook call timed out) keeps `close()` from ever calling back, and the process then overstays its
 * termination grace (issue 19, item 2). So the server's connections are tracked from the first byte:
 *  1. stop accepting (`close()`);
 *  2. at once destroy every connection with no request in flight: idle, never used, or still in its
 *     TLS handshake;
 *  3. let in-flight requests finish, closing each connection as its last response ends;
 *  4. after `inFlightMs`, destroy whatever is left.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import type { Server as HttpsServer } from "node:https";
import type { Socket } from "node:net";

export interface ServerShutdown {
  /** Resolves once every connection is closed, at most about `inFlightMs` after the call. */
  shutdown(inFlightMs: number): Promise<void>;
}

interface Connection {
  socket: Socket;
  inFlight: number;
  /** Responses not yet finished: told `Connection: close` when the server starts stopping. */
  responses: Set<ServerResponse>;
}

/**
 * Tells the client not to reuse this connection. Without it a keep-alive client (the API server
 * calling a webhook) may send its next request on a connection the server is about to close; a POST
 * is not retried on another connection, so an admission with failurePolicy Ignore would fail open.
 */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) res.setHeader("connection", "close");
}

const tracked = new WeakMap<HttpServer | HttpsServer, ServerShutdown>();

/**
 * Tracks a server's connections for `shutdown`; call before `listen`. Calling it again for the same
 * server returns the same tracker.
 */
export function trackConnections(server: HttpServer | HttpsServer): ServerShutdown {
  const existing = tracked.get(server);
  if (existing) return existing;
  // Keyed by the peer's address and port: the same for the TCP socket and the TLS socket wrapped
  // around it, so requests (which see the TLS socket) find the TCP connection to close.
  const connections = new Map<string, Connection>();
  let stopping = false;
  server.on("connection", (socket: Socket) => {
    const key = peerOf(socket);
    if (stopping) {
      socket.destroy();
      return;
    }
    connections.set(key, { socket, inFlight: 0, responses: new Set() });
    socket.once("close", () => {
      if (connections.get(key)?.socket === socket) connections.delete(key);
    });
  });
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const conn = connections.get(peerOf(req.socket));
    if (!conn) return;
    conn.inFlight++;
    conn.responses.add(res);
    if (stopping) closeAfter(res);
    res.once("close", () => {
      conn.inFlight--;
      conn.responses.delete(res);
      if (stopping && conn.inFlight === 0) conn.socket.destroy();
    });
  });
  const tracker: ServerShutdown = {
    shutdown(inFlightMs: number): Promise<void> {
      stopping = true;
      for (const c of connections.values()) for (const res of c.responses) closeAfter(res);
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          for (const c of connections.values()) c.socket.destroy();
          server.closeAllConnections();
        }, inFlightMs);
        force.unref();
        if (!server.listening) {
          clearTimeout(force);
          for (const c of connections.values()) c.socket.destroy();
          resolve();
          return;
        }
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        for (const c of connections.values()) if (c.inFlight === 0) c.socket.destroy();
        server.closeIdleConnections();
      });
    },
  };
  tracked.set(server, tracker);
  return tracker;
}

function peerOf(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
