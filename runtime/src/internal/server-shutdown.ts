/**
 * Shutdown of an HTTP(S) server that always ends within a bound.
 *
 * Node's `server.close()` + `closeIdleConnections()` leaves open every connection that has not yet
 * sent a request: a TLS client that handshook and went silent (what an API server leaves behind after
 * a webhook call timed out) keeps `close()` from ever calling back, and the process then overstays its
 * termination grace (issue 19, item 2). So the server's connections are tracked from the first byte:
 *  0. optionally, first drain (`drain()`, the manager's shutdown delay): keep accepting and serving, but
 *     end every response with `Connection: close` (HTTP/2: GOAWAY once a request arrives), so clients
 *     whose connections are pinned to this replica (kube-proxy keeps an established connection on its
 *     endpoint) reconnect, and land on a replica that is still ready;
 *  1. stop accepting (`close()`);
 *  2. at once destroy every connection with no request in flight: idle, never used, or still in its
 *     TLS handshake;
 *  3. let in-flight requests finish, closing each connection as its last response ends;
 *  4. after `inFlightMs`, destroy whatever is left.
 * An HTTP/2 connection (a server made with enableHTTP2) is closed the HTTP/2 way instead: its session
 * sends GOAWAY, takes no new streams, lets those in flight finish, then closes the connection itself.
 */
import type { Server as HttpServer, IncomingMessage, ServerResponse } from "node:http";
import type { Http2SecureServer, Http2Session } from "node:http2";
import type { Server as HttpsServer } from "node:https";
import type { Socket } from "node:net";

export interface ServerShutdown {
  /**
   * From now on every response closes its connection (`Connection: close`), in flight ones included;
   * new connections are still accepted and served. Closing after a response, which the client is told
   * of, is the one close a keep-alive client never races: an idle connection closed under it may just
   * have been given a request, and a POST is not retried.
   */
  drain(): void;
  /** Resolves once every connection is closed, at most about `inFlightMs` after the call. */
  shutdown(inFlightMs: number): Promise<void>;
}

interface Connection {
  socket: Socket;
  inFlight: number;
  /** Responses not yet finished: told `Connection: close` when the server starts stopping. */
  responses: Set<ServerResponse>;
  /** Set when the connection speaks HTTP/2. */
  session?: Http2Session;
}

type TrackedServer = HttpServer | HttpsServer | Http2SecureServer;

/**
 * Tells the client not to reuse this connection. Without it a keep-alive client (the API server
 * calling a webhook) may send its next request on a connection the server is about to close; a POST
 * is not retried on another connection, so an admission with failurePolicy Ignore would fail open.
 */
function closeAfter(conn: Connection, res: ServerResponse): void {
  // HTTP/2 has no Connection header: GOAWAY says the same for the whole session.
  if (conn.session) conn.session.close();
  else if (!res.headersSent) res.setHeader("connection", "close");
}

/** Closes a connection now: an HTTP/2 session gracefully (GOAWAY; it has no stream in flight), else the socket. */
function closeIdle(conn: Connection): void {
  if (conn.session) conn.session.close();
  else conn.socket.destroy();
}

const tracked = new WeakMap<TrackedServer, ServerShutdown>();

/**
 * Tracks a server's connections for `shutdown`; call before `listen`. Calling it again for the same
 * server returns the same tracker.
 */
export function trackConnections(server: TrackedServer): ServerShutdown {
  const existing = tracked.get(server);
  if (existing) return existing;
  // Keyed by the peer's address and port: the same for the TCP socket and the TLS socket wrapped
  // around it, so requests (which see the TLS socket) find the TCP connection to close.
  const connections = new Map<string, Connection>();
  let stopping = false;
  let draining = false;
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
  server.on("session", (session: Http2Session) => {
    const socket = session.socket;
    const conn = socket && connections.get(peerOf(socket));
    if (!conn) return;
    conn.session = session;
    if (stopping) session.close();
  });
  // Before the server's own handler, which may answer at once: the header must be set before that.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const conn = connections.get(peerOf(req.socket));
    if (!conn) return;
    conn.inFlight++;
    conn.responses.add(res);
    if (stopping || draining) closeAfter(conn, res);
    res.once("close", () => {
      conn.inFlight--;
      conn.responses.delete(res);
      // A closing HTTP/2 session ends its connection itself once its last stream is done.
      if (stopping && conn.inFlight === 0 && !conn.session) conn.socket.destroy();
    });
  });
  const tracker: ServerShutdown = {
    drain(): void {
      draining = true;
      for (const c of connections.values()) for (const res of c.responses) closeAfter(c, res);
    },
    shutdown(inFlightMs: number): Promise<void> {
      stopping = true;
      for (const c of connections.values()) for (const res of c.responses) closeAfter(c, res);
      return new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          for (const c of connections.values()) c.socket.destroy();
          // node:http2's server has no closeAllConnections; its sockets were destroyed above.
          if ("closeAllConnections" in server) server.closeAllConnections();
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
        for (const c of connections.values()) if (c.inFlight === 0) closeIdle(c);
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      });
    },
  };
  tracked.set(server, tracker);
  return tracker;
}

function peerOf(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
