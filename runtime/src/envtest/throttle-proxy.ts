/**
 * An HTTP proxy in front of the API server that answers requests with 429 Too Many Requests and a
 * Retry-After, as API Priority and Fairness does when a priority level is saturated, for tests of what
 * a reflector loses across throttling: nothing. It speaks plain HTTP to its client and HTTPS, with the
 * environment's admin certificate, to the API server, so it sees each request (the TCP fault proxy
 * cannot: TLS passes through it). Test support: not exported from the envtest entry point.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import { KubeConfig } from "@kubernetes/client-node";
import type { RestConfig } from "./kubeconfig.js";

/**
 * What is refused: `none`; `lists`, every read that is not a plain watch (gets, paged lists and
 * WatchList streams, which carry sendInitialEvents=true); or `all` reads, watches included.
 */
export type Throttled = "none" | "lists" | "all";

export interface ThrottleProxy {
  /** "http://127.0.0.1:<port>" */
  url: string;
  /** A kubeconfig whose cluster is the proxy (which authenticates upstream itself). */
  kubeConfig(): KubeConfig;
  /** Refuses these requests with 429 and `Retry-After: retryAfterSeconds` until set back to `none`. */
  throttle(what: Throttled, retryAfterSeconds?: number): void;
  /** Requests refused so far, by `lists` and `watches`. */
  readonly refused: { lists: number; watches: number };
  /** Ends every request in flight (watches included), so the client must come back. */
  dropConnections(): void;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1 (a free port) and forwards to the API server of `config`. */
export async function startThrottleProxy(config: RestConfig): Promise<ThrottleProxy> {
  const upstream = new URL(config.host);
  let throttled: Throttled = "none";
  let retryAfterSeconds = 1;
  const refused = { lists: 0, watches: 0 };
  const inFlight = new Set<ServerResponse>();

  const refuse = (res: ServerResponse) => {
    const status = {
      apiVersion: "v1",
      kind: "Status",
      status: "Failure",
      message: "Too many requests, please try again later.",
      reason: "TooManyRequests",
      details: { retryAfterSeconds },
      code: 429,
    };
    res.writeHead(429, { "content-type": "application/json", "retry-after": String(retryAfterSeconds) });
    res.end(JSON.stringify(status));
  };

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const up = httpsRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
        ca: config.caData,
        cert: config.certData,
        key: config.keyData,
      },
      (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    res.on("close", () => {
      inFlight.delete(res);
      up.destroy();
    });
    inFlight.add(res);
    req.pipe(up);
  };

  const server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://proxy").searchParams;
    const watch = query.get("watch") === "true" && query.get("sendInitialEvents") !== "true";
    if (req.method === "GET" && throttled !== "none" && (throttled === "all" || !watch)) {
      if (watch) refused.watches++;
      else refused.lists++;
      refuse(res);
      return;
    }
    forward(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    kubeConfig() {
      const kc = new KubeConfig();
      kc.loadFromOptions({
        // Plain HTTP: client-node allows it only with skipTLSVerify (there is no TLS to verify).
        clusters: [{ name: "throttle", server: url, skipTLSVerify: true }],
        users: [{ name: "throttle" }],
        contexts: [{ name: "throttle", cluster: "throttle", user: "throttle" }],
        currentContext: "throttle",
      });
      return kc;
    },
    throttle(what, seconds = 1) {
      throttled = what;
      retryAfterSeconds = seconds;
    },
    refused,
    dropConnections() {
      for (const res of inFlight) res.destroy();
    },
    async close() {
      for (const res of inFlight) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
