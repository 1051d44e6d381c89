import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { SecureContextOptions } from "node:tls";
import type { Logger } from "../../log/types.js";
import { CertWatcher } from "../../tls/certwatcher.js";
import { selfSignedServingCertificate } from "../../tls/selfsigned.js";
import { createTLSServer, type TLSServer } from "../../tls/server.js";
import type { MetricsFilter } from "../filters/filters.js";
import type { Registry } from "../prom.js";

/** Plain-HTTP /metrics in the Prometheus text format (controller-runtime's default, SecureServing false). */
export function createMetricsServer(registry: Registry): Server {
  return createServer((req, res) => serveMetrics(registry, req, res));
}

export interface SecureMetricsServerOptions {
  /**
   * A directory with the serving certificate and key, re-read when they change. Without it a
   * self-signed certificate for localhost/127.0.0.1 is made at start, as controller-runtime does.
   */
  certDir?: string;
  /** "tls.crt" by default. */
  certName?: string;
  /** "tls.key" by default. */
  keyName?: string;
  /** Offer HTTP/2 (ALPN h2, with HTTP/1.1 for other clients). Default false: HTTP/1.1 only. */
  enableHTTP2?: boolean;
  /** Runs before every request, e.g. authenticationAndAuthorizationFilter; none = TLS only. */
  filter?: MetricsFilter;
  logger: Logger;
  /** How often certDir is re-read without file events (10 s). */
  certPollIntervalMs?: number;
}

/** A self-signed pair lives a week (the CA helper's validity); it is replaced well before that. */
const SELF_SIGNED_RENEW_MS = 3 * 24 * 3600 * 1000;

/**
 * /metrics over HTTPS (controller-runtime's SecureServing): TLS 1.2+, HTTP/1.1 only unless
 * enableHTTP2 (ALPN offers no h2 by default, Kubebuilder's default against the HTTP/2 rapid-reset
 * CVEs), and the filter in front of every request. Certificate watching stops when the server closes.
 */
export async function createSecureMetricsServer(
  registry: Registry,
  options: SecureMetricsServerOptions,
): Promise<TLSServer> {
  const tls = (pair: { cert: string | Buffer; key: string | Buffer }): SecureContextOptions => ({
    cert: pair.cert,
    key: pair.key,
    minVersion: "TLSv1.2",
  });
  let server: TLSServer | undefined;
  let stopCerts: () => void;
  let first: { cert: string | Buffer; key: string | Buffer };
  if (options.certDir) {
    const watcher = new CertWatcher({
      certDir: options.certDir,
      certName: options.certName ?? "tls.crt",
      keyName: options.keyName ?? "tls.key",
      logger: options.logger,
      pollIntervalMs: options.certPollIntervalMs,
      owner: "metrics server",
      onChange: (pair) => server?.setSecureContext(tls(pair)),
    });
    first = await watcher.start();
    stopCerts = () => watcher.stop();
  } else {
    first = selfSigned();
    const renew = setInterval(() => server?.setSecureContext(tls(selfSigned())), SELF_SIGNED_RENEW_MS);
    renew.unref();
    stopCerts = () => clearInterval(renew);
  }
  const filter = options.filter;
  server = createTLSServer({ ...tls(first), enableHTTP2: options.enableHTTP2 }, (req, res) => {
    if (!filter) {
      serveMetrics(registry, req, res);
      return;
    }
    const path = new URL(req.url ?? "/", "https://metrics").pathname;
    filter({ method: req.method, path, headers: req.headers }).then(
      (decision) => {
        if (decision.allowed) serveMetrics(registry, req, res);
        else textError(res, decision.code, decision.message);
      },
      (err: unknown) => {
        options.logger.error({ err }, "metrics filter failed");
        textError(res, 500, "Internal Server Error");
      },
    );
  });
  server.on("close", stopCerts);
  return server;
}

function selfSigned(): { cert: string; key: string } {
  const pair = selfSignedServingCertificate(["localhost", "127.0.0.1"], "kbts-metrics-server-ca");
  return { cert: pair.cert + pair.caCert, key: pair.key };
}

/** Go's http.Error: plain text, nosniff, message plus newline. */
function textError(res: ServerResponse, code: number, message: string): void {
  res
    .writeHead(code, { "Content-Type": "text/plain; charset=utf-8", "X-Content-Type-Options": "nosniff" })
    .end(`${message}\n`);
}

function serveMetrics(registry: Registry, req: IncomingMessage, res: ServerResponse): void {
  const path = (req.url ?? "/").split("?")[0];
  if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
    textError(res, 404, "404 page not found");
    return;
  }
  registry.metrics().then(
    (text) => {
      res.writeHead(200, { "Content-Type": registry.contentType });
      res.end(req.method === "HEAD" ? undefined : text);
    },
    (err: unknown) => {
      textError(res, 500, `error gathering metrics: ${err instanceof Error ? err.message : String(err)}`);
    },
  );
}
