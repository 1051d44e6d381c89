import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SecureContextOptions } from "node:tls";
import { formatAddress } from "../internal/address.js";
import { type ServerShutdown, trackConnections } from "../internal/server-shutdown.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { type CertPair, CertWatcher } from "../tls/certwatcher.js";
import { createTLSServer, offeredProtocols, type TLSServer } from "../tls/server.js";
import { checkWebhookPath } from "./paths.js";
import type { HttpHandler, WebhookServer } from "./types.js";

export interface WebhookServerOptions {
  /** 9443 by default; 0 picks a free port (see address()). */
  port?: number;
  /** All interfaces by default. */
  host?: string;
  /** Defaults to <tmpdir>/k8s-webhook-server/serving-certs, as controller-runtime. */
  certDir?: string;
  certName?: string;
  keyName?: string;
  /**
   * A CA file (in certDir) whose certificates clients must present (controller-runtime's
   * ClientCAName: RequireAndVerifyClientCert). Read once at start.
   */
  clientCAName?: string;
  /** Extra TLS settings (controller-runtime's TLSOpts), e.g. ciphers or a higher minVersion. */
  tls?: Pick<SecureContextOptions, "ciphers" | "minVersion" | "maxVersion" | "ecdhCurve">;
  /**
   * Offer HTTP/2 (ALPN h2, with HTTP/1.1 for other clients). Default false: HTTP/1.1 only, as
   * Kubebuilder's scaffold, against the HTTP/2 Stream Cancellation and Rapid Reset CVEs.
   */
  enableHTTP2?: boolean;
  logger?: Logger;
  /** How often the certificate is re-read without file events (10 s). */
  certPollIntervalMs?: number;
  /**
   * How long requests in flight at shutdown may take before their connections are cut (5 s). Idle and
   * never-used connections close at once. controller-runtime waits up to 60 s; that overstays both the
   * manager's 30 s grace and a Deployment's usual 10 s termination grace, so the kubelet kills it.
   */
  shutdownTimeoutMs?: number;
}

/** The webhook server createWebhookServer returns: the WebhookServer contract plus what tests and tools need. */
export interface HttpsWebhookServer extends WebhookServer {
  /** The bound address once listening (useful with port 0). */
  address(): { host: string; port: number } | undefined;
  /** Registered paths, in registration order. */
  paths(): string[];
  /**
   * The certificate it serves now, as its CertWatcher last read it (undefined before it starts): for
   * clients that share it (forwarding replicas). A rotation gives a new object.
   */
  servingCertificate?(): ServedCertificate | undefined;
}

/** A webhook server's certificate in use, for clients that share it (forwarding replicas). */
export interface ServedCertificate {
  cert: Buffer;
  key: Buffer;
  /** certDir/ca.crt: the CA that issued the certificate, when the Secret carries it (cert-manager, rotation). */
  ca?: Buffer;
  /** The server requires client certificates (clientCAName). */
  requiresClientCert: boolean;
}

export const DEFAULT_WEBHOOK_PORT = 9443;
const DEFAULT_SHUTDOWN_TIMEOUT_MS = 5_000;
export const defaultCertDir = (): string => join(tmpdir(), "k8s-webhook-server", "serving-certs");

/**
 * The admission webhook HTTPS server (controller-runtime's webhook.Server): TLS 1.2+, certificate
 * and key read from certDir and swapped in for the next handshake when the files change, HTTP/1.1
 * unless enableHTTP2. It runs on every replica (needLeaderElection false).
 */
export function createWebhookServer(options: WebhookServerOptions = {}): HttpsWebhookServer {
  return new HttpsServer(options);
}

class HttpsServer implements HttpsWebhookServer {
  readonly needLeaderElection = false;
  private readonly port: number;
  private readonly host: string | undefined;
  private readonly log: Logger;
  private readonly handlers = new Map<string, HttpHandler>();
  private server: TLSServer | undefined;
  private connections: ServerShutdown | undefined;
  private running = false;
  private clientCA: Buffer | undefined;
  private certs: CertWatcher | undefined;
  private serving: { pair: CertPair; certificate: ServedCertificate } | undefined;
  private readonly startedPromise: Promise<void>;
  private markStarted!: () => void;
  private markFailed!: (err: unknown) => void;

  constructor(private readonly options: WebhookServerOptions) {
    this.port = options.port ?? DEFAULT_WEBHOOK_PORT;
    this.host = options.host;
    this.log = (options.logger ?? nopLogger()).child({ component: "webhook-server" });
    this.startedPromise = new Promise<void>((resolve, reject) => {
      this.markStarted = resolve;
      this.markFailed = reject;
    });
    this.startedPromise.catch(() => {}); // observed through started() or start()
  }

  register(path: string, handler: HttpHandler): void {
    checkWebhookPath(path, this.handlers);
    this.handlers.set(path, handler);
    this.log.info({ path }, "registering webhook");
  }

  started(): Promise<void> {
    return this.startedPromise;
  }

  address(): { host: string; port: number } | undefined {
    const a = this.server?.address() as AddressInfo | null | undefined;
    return a ? { host: a.address, port: a.port } : undefined;
  }

  paths(): string[] {
    return [...this.handlers.keys()];
  }

  servingCertificate(): ServedCertificate | undefined {
    const pair = this.certs?.pair;
    if (!pair) return undefined;
    // One object per pair, so a client can tell a rotation by identity.
    if (this.serving?.pair !== pair) {
      this.serving = {
        pair,
        certificate: { ...pair, requiresClientCert: this.options.clientCAName !== undefined },
      };
    }
    return this.serving.certificate;
  }

  drain(): void {
    this.connections?.drain();
  }

  async start(signal: AbortSignal): Promise<void> {
    if (this.running) throw new Error("webhook server already started");
    this.running = true;
    const options = this.options;
    const log = this.log;
    const certs = new CertWatcher({
      certDir: options.certDir ?? defaultCertDir(),
      certName: options.certName ?? "tls.crt",
      keyName: options.keyName ?? "tls.key",
      caName: "ca.crt",
      logger: log,
      pollIntervalMs: options.certPollIntervalMs,
      onChange: (pair) => this.server?.setSecureContext(this.tlsOptions(pair)),
    });
    this.certs = certs;
    let srv: TLSServer;
    try {
      if (options.clientCAName) {
        const caPath = join(options.certDir ?? defaultCertDir(), options.clientCAName);
        this.clientCA = await readFile(caPath).catch((err: Error) => {
          throw new Error(`webhook server: cannot read client CA ${caPath} (clientCAName): ${err.message}`);
        });
      }
      const pair = await certs.start();
      srv = createTLSServer(
        {
          ...this.tlsOptions(pair),
          ...(this.clientCA ? { requestCert: true, rejectUnauthorized: true } : {}),
          enableHTTP2: options.enableHTTP2,
          maxHeaderSize: 1 << 20,
          keepAliveTimeout: 90_000,
          headersTimeout: 32_000,
        },
        (req, res) => void this.dispatch(req, res),
      );
      this.connections = trackConnections(srv);
      this.server = srv;
      await new Promise<void>((resolve, reject) => {
        srv.once("error", reject);
        srv.listen({ port: this.port, host: this.host }, () => {
          srv.off("error", reject);
          resolve();
        });
      });
    } catch (err) {
      certs.stop();
      this.running = false;
      this.markFailed(err);
      throw err;
    }
    log.info(
      { address: formatAddress(srv.address()), protocols: offeredProtocols(options) },
      "serving webhook server",
    );
    this.markStarted();

    if (!signal.aborted)
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
    certs.stop();
    await this.connections?.shutdown(options.shutdownTimeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
    log.info("webhook server stopped");
  }

  private tlsOptions(pair: { cert: Buffer; key: Buffer }): SecureContextOptions {
    return {
      minVersion: "TLSv1.2",
      ...this.options.tls,
      cert: pair.cert,
      key: pair.key,
      ...(this.clientCA ? { ca: this.clientCA } : {}),
    };
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "https://webhook").pathname;
    const handler = this.handlers.get(path);
    if (!handler) {
      res
        .writeHead(404, { "content-type": "text/plain; charset=utf-8" })
        .end(`no webhook registered at ${path}\n`);
      return;
    }
    try {
      await handler(req, res);
    } catch (err) {
      this.log.error({ err, path }, "webhook handler failed");
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      if (!res.writableEnded) res.end("internal error\n");
    }
  }
}
