/**
 * The HTTPS server the metrics and webhook servers are built on, with HTTP/2 as an opt-in.
 *
 * Off (the default, as Kubebuilder's scaffold): node:https, ALPN offers only "http/1.1", so no client
 * can negotiate HTTP/2 and the HTTP/2 Stream Cancellation and Rapid Reset CVEs
 * (GHSA-qppj-fm5r-hxr3, GHSA-4374-p667-p6c8) cannot reach the process.
 * On (`enableHTTP2`): node:http2's secure server with `allowHTTP1`, ALPN offers "h2" then "http/1.1",
 * so HTTP/2 clients (the API server calling a webhook, Prometheus) get h2 and others keep HTTP/1.1.
 * Handlers get the same request/response API either way (node's HTTP/2 compatibility layer).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2SecureServer, Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { createServer as createHttpsServer, type Server as HttpsServer } from "node:https";
import type { SecureContextOptions } from "node:tls";

/** Either server: both have listen, address, close and setSecureContext, and emit "request". */
export type TLSServer = HttpsServer | Http2SecureServer;

export interface TLSServerOptions extends SecureContextOptions {
  /** Offer HTTP/2 (ALPN h2) besides HTTP/1.1. Default false: HTTP/1.1 only. */
  enableHTTP2?: boolean;
  /** Ask for, and with rejectUnauthorized require, a client certificate signed by `ca`. */
  requestCert?: boolean;
  rejectUnauthorized?: boolean;
  /** HTTP/1.1 limits and timeouts (node:http's defaults when unset). */
  maxHeaderSize?: number;
  keepAliveTimeout?: number;
  headersTimeout?: number;
}

/**
 * What handlers are written against: node:http's request and response. HTTP/2 requests come through
 * node's compatibility layer, whose Http2ServerRequest/Response carry the same members handlers use
 * (method, url, headers, httpVersion, the body stream, writeHead/setHeader/end, headersSent,
 * writableEnded, "close"), so one handler serves both protocols.
 */
export type TLSRequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export const HTTP1_ONLY_ALPN = ["http/1.1"];
export const HTTP2_ALPN = ["h2", "http/1.1"];

/** The protocols a server made with these options offers, for logs. */
export function offeredProtocols(options: Pick<TLSServerOptions, "enableHTTP2">): string[] {
  return options.enableHTTP2 ? HTTP2_ALPN : HTTP1_ONLY_ALPN;
}

export function createTLSServer(options: TLSServerOptions, handler: TLSRequestHandler): TLSServer {
  const { enableHTTP2, maxHeaderSize, keepAliveTimeout, headersTimeout, ...tls } = options;
  if (!enableHTTP2) {
    return createHttpsServer(
      { ...tls, ALPNProtocols: HTTP1_ONLY_ALPN, maxHeaderSize, keepAliveTimeout, headersTimeout },
      handler,
    );
  }
  // node:http2 is loaded only when it is on: a manager with HTTP/2 off (the default) never loads it.
  const server = process.getBuiltinModule("node:http2").createSecureServer(
    {
      ...tls,
      allowHTTP1: true,
      ALPNProtocols: HTTP2_ALPN,
      // The HTTP/2 twin of maxHeaderSize: the largest header list a client may send.
      ...(maxHeaderSize ? { settings: { maxHeaderListSize: maxHeaderSize } } : {}),
    },
    (req: Http2ServerRequest, res: Http2ServerResponse) =>
      handler(req as unknown as IncomingMessage, res as unknown as ServerResponse),
  );
  // HTTP/1.1 connections on this server read these from it, as a node:http server's own.
  if (keepAliveTimeout !== undefined) Object.assign(server, { keepAliveTimeout });
  if (headersTimeout !== undefined) Object.assign(server, { headersTimeout });
  return server;
}
