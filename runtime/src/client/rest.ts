/**
 * The REST layer: JSON requests and watch streams against the API server, with credentials from a
 * client-node KubeConfig.
 *
 * Why our own instead of client-node's generated APIs: (1) everything here is typed by our Kind
 * descriptors, so one code path serves every built-in kind and every CRD, where the generated APIs
 * need one class per group and untyped CustomObjectsApi calls for CRDs; (2) the reflector needs full
 * control of watches (bookmarks, timeouts, stall detection, telling 410 from other failures), which
 * client-node's Watch hides (and in 2.x aborts every 30 s); (3) one place to count requests for
 * rest_client_requests_total and to map Status bodies to typed errors. Authentication stays
 * client-node's: `applyToHTTPSOptions` gives certs, tokens, exec-plugin and OIDC credentials.
 */
import http from "node:http";
import https from "node:https";
import { createSecureContext, TLSSocket } from "node:tls";
import { isDeepStrictEqual } from "node:util";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { restClientRequestsTotal } from "../metrics/registry.js";
import { type ReportStatus, traceRequest } from "../tracing/tracing.js";
import { type ApiError, errorFromResponse } from "./errors.js";
import type { KubeConfig } from "./kubeconfig.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RestRequest {
  method: HttpMethod;
  /** Path plus query string, e.g. "/api/v1/namespaces/default/pods?limit=500". */
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Defaults to application/json when there is a body. */
  contentType?: string;
  /** The Accept header (default application/json), e.g. the PartialObjectMetadata media type. */
  accept?: string;
  signal?: AbortSignal;
  /** Whole-request timeout in ms; default from the client (60 s). */
  timeoutMs?: number;
  /**
   * Called synchronously on each attempt, once the connection is ready and just before the request's
   * first byte is written; a throw fails the request with nothing sent. The leader-election fence uses
   * it: a write that passed the fence and was then held up (a paused process, a busy connection pool,
   * a slow TLS handshake) must not go out after the lease has passed to another replica.
   */
  beforeSend?: () => void;
  /**
   * Send it over the watch connections instead of the request pool: an informer's list, so that the
   * watch it starts next reuses the list's connection instead of opening (and handshaking) another.
   * client-go gets the same from its one shared transport (and one HTTP/2 connection).
   */
  onWatchConnections?: boolean;
}

/** One decoded line of a watch stream. */
export interface WatchEvent {
  type: "ADDED" | "MODIFIED" | "DELETED" | "BOOKMARK" | "ERROR";
  object: Record<string, unknown>;
}

export interface RestClientOptions {
  userAgent?: string;
  timeoutMs?: number;
  /**
   * How long a watch may take to answer with its response headers (10 s); the stream itself then has
   * no timeout. The API server answers a watch at once, so a silent one is a dead connection.
   */
  watchResponseTimeoutMs?: number;
  /** Called with each `Warning` header the API server returns (deprecations, unknown fields). */
  onWarning?: (warning: string) => void;
  /** How often to honour Retry-After on 429/5xx before giving up (client-go: 10). */
  maxRetries?: number;
}

/** Aborted by the caller's signal (not a failure of the server). */
export class RequestAbortedError extends Error {
  override name = "RequestAbortedError";
}

/** The byte that ends each watch event (the API server sends one JSON object per line). */
const NEWLINE = 0x0a;

export class RestClient {
  readonly server: URL;
  /**
   * The server URL's own path, without a trailing slash ("" for most): a proxy's prefix such as
   * Rancher's /k8s/clusters/<id>. Every request path goes under it, as client-go joins them.
   */
  private readonly pathPrefix: string;
  /** The server's host name as http.request takes it: an IPv6 address without its brackets. */
  private readonly hostname: string;
  private readonly kc: KubeConfig;
  private readonly options: Required<Omit<RestClientOptions, "onWarning">> &
    Pick<RestClientOptions, "onWarning">;
  private agents: PooledAgent[] = [];
  /** Requests sent and not yet answered (headers), with when they were sent. */
  private readonly awaiting = new Map<http.ClientRequest, number>();

  constructor(kubeConfig: KubeConfig, options: RestClientOptions = {}) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) {
      throw new Error(
        `kubeconfig context "${kubeConfig.getCurrentContext()}" names no cluster; fix current-context`,
      );
    }
    this.kc = kubeConfig;
    this.server = new URL(cluster.server);
    this.pathPrefix = this.server.pathname.replace(/\/+$/, "");
    this.hostname = this.server.hostname.replace(/^\[(.*)\]$/, "$1");
    liveClients.add(new WeakRef(this));
    this.options = {
      userAgent: options.userAgent ?? `kbts-runtime/0.1.0 (node ${process.version})`,
      timeoutMs: options.timeoutMs ?? 60_000,
      watchResponseTimeoutMs: options.watchResponseTimeoutMs ?? 10_000,
      maxRetries: options.maxRetries ?? 10,
      onWarning: options.onWarning,
    };
  }

  /** host:port as rest_client_requests_total labels it. */
  get host(): string {
    return this.server.host;
  }

  /** A JSON request; throws a typed ApiError for any non-2xx answer. */
  request<T = unknown>(req: RestRequest): Promise<T> {
    return traceRequest(req.method, req.path, this.server, (status) => this.exchange<T>(req, status));
  }

  private async exchange<T>(req: RestRequest, status?: ReportStatus): Promise<T> {
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    for (let attempt = 0; ; attempt++) {
      let res: http.IncomingMessage;
      let body: Buffer;
      try {
        res = await this.send(req, payload, false);
        body = await readBody(res, req.signal);
      } catch (err) {
        // A pooled connection the server already closed (e.g. after it restarted) fails on first use;
        // Node documents retrying that once. Only for reads, which are safe to repeat.
        if (attempt === 0 && req.method === "GET" && staleSocketErrors.has(err as object)) continue;
        throw err;
      }
      const code = res.statusCode ?? 0;
      status?.(code);
      if (code >= 200 && code < 300) {
        return (body.length === 0 ? undefined : JSON.parse(body.toString("utf8"))) as T;
      }
      const wait = retryAfterMs(res, code);
      if (wait !== undefined && attempt < this.options.maxRetries) {
        await sleepUnlessAborted(wait, req.signal);
        if (req.signal?.aborted) throw new RequestAbortedError("aborted");
        continue;
      }
      throw errorWithRetryAfter(res, code, body);
    }
  }

  /**
   * Opens a watch and calls `onEvent` for each line until the server ends the stream (resolves) or
   * the request fails (rejects with an ApiError for a non-200 answer, RequestAbortedError when the
   * signal aborts, or the network error). An ERROR event is passed on, not thrown: the caller decides.
   */
  async watch(
    path: string,
    onEvent: (event: WatchEvent) => void,
    signal?: AbortSignal,
    accept?: string,
  ): Promise<void> {
    const res = await this.send({ method: "GET", path, signal, accept }, undefined, true);
    const code = res.statusCode ?? 0;
    if (code !== 200) {
      throw errorWithRetryAfter(res, code, await readBody(res, signal));
    }
    await new Promise<void>((resolve, reject) => {
      // Lines are cut from the bytes and decoded one by one: a newline byte never falls inside a UTF-8
      // character, and a string buffer appended per chunk was flattened and copied by every search
      // for a newline (a tenth of a shard's allocations while it listed its pods).
      let partial: Buffer[] = [];
      let failed = false;
      const fail = (err: unknown) => {
        if (failed) return;
        failed = true;
        res.destroy();
        reject(err);
      };
      const onLine = (line: string): void => {
        if (line.trim() === "") return;
        let event: WatchEvent;
        try {
          event = JSON.parse(line) as WatchEvent;
        } catch {
          fail(new Error(`undecodable watch event from ${path}: ${line.slice(0, 200)}`));
          return;
        }
        try {
          onEvent(event);
        } catch (err) {
          fail(err);
        }
      };
      res.on("data", (chunk: Buffer) => {
        let start = 0;
        let nl = chunk.indexOf(NEWLINE);
        while (nl >= 0 && !failed) {
          if (partial.length === 0) onLine(chunk.toString("utf8", start, nl));
          else {
            partial.push(chunk.subarray(start, nl));
            const line = Buffer.concat(partial).toString("utf8");
            partial = [];
            onLine(line);
          }
          start = nl + 1;
          nl = chunk.indexOf(NEWLINE, start);
        }
        if (start < chunk.length) partial.push(chunk.subarray(start));
      });
      let ended = false;
      res.on("end", () => {
        ended = true;
        if (!failed) resolve();
      });
      // Some connection losses end the stream with neither "end" nor "error".
      res.on("close", () => {
        if (!ended)
          fail(
            signal?.aborted ? new RequestAbortedError("watch aborted") : new Error("watch connection closed"),
          );
      });
      res.on("error", (err) => fail(signal?.aborted ? new RequestAbortedError("watch aborted") : err));
      res.on("aborted", () =>
        fail(signal?.aborted ? new RequestAbortedError("watch aborted") : new Error("watch stream aborted")),
      );
      if (signal) {
        if (signal.aborted) fail(new RequestAbortedError("watch aborted"));
        signal.addEventListener("abort", () => fail(new RequestAbortedError("watch aborted")), {
          once: true,
        });
      }
    });
  }

  /**
   * Destroys the pooled connections no request is using. After a timeout or a stalled watch the
   * others in the pool most likely share the dead path (a frozen load balancer, a half-open NAT
   * entry); dropping them makes the next request open a fresh connection instead of waiting out
   * its own timeout on the next dead one, one after the other (issue 19, item 4).
   */
  dropIdleConnections(): void {
    for (const { agent } of this.agents) {
      for (const sockets of Object.values(agent.freeSockets)) for (const s of sockets ?? []) s.destroy();
    }
  }

  /**
   * A watch to this server was found stalled while a fresh request worked: the path that connections
   * opened earlier took is dead. Every client of this process to the same server drops its idle
   * connections and fails the requests that have waited longer than `silentForMs` for an answer, so
   * a reconcile blocked on a frozen connection retries at once on a fresh one instead of waiting out
   * its 60 s timeout (and the next one behind it another 60 s).
   */
  reportStalledPath(silentForMs: number): void {
    for (const ref of liveClients) {
      const client = ref.deref();
      if (!client) {
        liveClients.delete(ref);
        continue;
      }
      if (client.server.host !== this.server.host) continue;
      client.dropIdleConnections();
      const cutoff = Date.now() - silentForMs;
      for (const [request, sentAt] of client.awaiting) {
        if (sentAt <= cutoff) {
          request.destroy(
            new Error(
              `no answer for ${Date.now() - sentAt} ms on a connection presumed dead (a watch to ${this.server.host} stalled)`,
            ),
          );
        }
      }
    }
  }

  /** Drops pooled connections (for shutdown and tests). */
  close(): void {
    for (const { agent } of this.agents) agent.destroy();
    this.agents = [];
  }

  private async send(
    req: RestRequest,
    payload: Buffer | undefined,
    streaming: boolean,
  ): Promise<http.IncomingMessage> {
    if (req.signal?.aborted) throw new RequestAbortedError("request aborted");
    const opts: https.RequestOptions = { headers: {} };
    // Credentials are fetched per request: exec plugins and OIDC refresh tokens that expire.
    await this.kc.applyToHTTPSOptions(opts);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) {
      if (v !== undefined) headers[k] = Array.isArray(v) ? v : String(v);
    }
    headers["User-Agent"] = this.options.userAgent;
    headers.Accept = req.accept ?? "application/json";
    if (payload) {
      headers["Content-Type"] = req.contentType ?? "application/json";
      headers["Content-Length"] = String(payload.length);
    }
    const { server } = this;
    const isHttps = server.protocol === "https:";
    const agent = this.agentFor(opts, isHttps, streaming || req.onWatchConnections === true);
    const method = req.method;
    return new Promise<http.IncomingMessage>((resolve, reject) => {
      // Options, not a URL: parsing one for every request cost more than the rest of this setup.
      const request = (isHttps ? https : http).request({
        protocol: server.protocol,
        hostname: this.hostname,
        port: server.port,
        path: this.requestPath(req.path),
        method,
        headers,
        agent,
        auth: opts.auth,
      });
      let settled = false;
      // Watches have no whole-request timeout, only one until their headers arrive: the server ends
      // them (timeoutSeconds) and the reflector's liveness check covers a stream that goes silent.
      const timeoutMs = streaming
        ? this.options.watchResponseTimeoutMs
        : (req.timeoutMs ?? this.options.timeoutMs);
      const timer = setTimeout(() => {
        this.dropIdleConnections();
        request.destroy(
          new Error(
            streaming
              ? `watch got no response within ${timeoutMs} ms`
              : `request timed out after ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      const onAbort = () => request.destroy(new RequestAbortedError("request aborted"));
      req.signal?.addEventListener("abort", onAbort, { once: true });
      if (!streaming) this.awaiting.set(request, Date.now());
      const cleanup = () => {
        this.awaiting.delete(request);
        if (timer) clearTimeout(timer);
        req.signal?.removeEventListener("abort", onAbort);
      };
      request.on("response", (res) => {
        settled = true;
        this.awaiting.delete(request);
        restClientRequestsTotal.inc({ code: String(res.statusCode ?? 0), method, host: server.host });
        if (this.options.onWarning) for (const w of warningsOf(res)) this.options.onWarning(w);
        if (streaming) {
          // The stream's own lifetime belongs to the caller; keep abort wired until it ends.
          cleanup();
          if (req.signal) {
            const abortStream = () => res.destroy(new RequestAbortedError("watch aborted"));
            req.signal.addEventListener("abort", abortStream, { once: true });
            res.on("close", () => req.signal?.removeEventListener("abort", abortStream));
          }
        } else {
          res.on("close", cleanup);
        }
        resolve(res);
      });
      request.on("error", (err) => {
        cleanup();
        if (!settled) {
          restClientRequestsTotal.inc({ code: "<error>", method, host: server.host });
          const code = (err as NodeJS.ErrnoException).code;
          if (request.reusedSocket && (code === "ECONNRESET" || code === "EPIPE")) staleSocketErrors.add(err);
          reject(req.signal?.aborted ? new RequestAbortedError("request aborted") : err);
        }
      });
      // TCP keep-alive from 5 s of idleness on every API connection (Node's agent only sets it on
      // sockets returned to the pool, never on a long-lived watch). Node 20 cannot shorten the
      // probe interval (the OS's 75 s x 9), so this finds a peer that is gone for good in minutes;
      // the reflector's liveness check and request timeouts find a frozen path in seconds.
      request.on("socket", (socket) => socket.setKeepAlive(true, KEEPALIVE_IDLE_MS));
      if (streaming) request.setNoDelay(true);
      const beforeSend = req.beforeSend;
      if (!beforeSend) {
        request.end(payload);
        return;
      }
      // Hold the request back until its connection is ready (TLS handshake done), so the check runs
      // right before the write: then nothing but this synchronous step separates it from the bytes.
      const go = () => {
        try {
          beforeSend();
        } catch (err) {
          request.destroy(err as Error);
          return;
        }
        request.end(payload);
      };
      request.once("socket", (socket) => {
        // A pooled socket is ready; a new one is ready on connect, or when its TLS handshake is done.
        if (request.reusedSocket || !socket.connecting) go();
        else socket.once(socket instanceof TLSSocket ? "secureConnect" : "connect", go);
      });
    });
  }

  /**
   * The request line's path: under the server's own path, and percent-encoded where a request line
   * cannot carry a character as is (as new URL would; the client's own paths never need it).
   */
  private requestPath(path: string): string {
    const full = this.pathPrefix + path;
    if (REQUEST_PATH.test(full)) return full;
    const url = new URL(full, this.server);
    return url.pathname + url.search;
  }

  /**
   * One keep-alive agent per distinct TLS identity: client-node's own agents are made per call
   * and would open a fresh TLS connection for every request. Watches get their own pool so a burst
   * of writes can never queue a watch behind it.
   */
  private agentFor(opts: https.RequestOptions, isHttps: boolean, streaming: boolean): http.Agent {
    const cluster = this.kc.getCurrentCluster();
    if (cluster?.proxyUrl && opts.agent) return opts.agent as http.Agent;
    const identity: TLSIdentity = {
      ca: opts.ca,
      cert: opts.cert,
      key: opts.key,
      servername: opts.servername,
      rejectUnauthorized: opts.rejectUnauthorized,
    };
    // Found by comparing the credentials (Buffers compared as bytes), not by hashing them: this runs
    // for every request, and a SHA-256 of the CA, certificate and key cost more than the comparison.
    const pooled = this.agents.find(
      (p) => p.streaming === streaming && isDeepStrictEqual(p.identity, identity),
    );
    if (pooled) return pooled.agent;
    const common = { keepAlive: true, maxSockets: streaming ? Number.POSITIVE_INFINITY : 64 };
    const agent = isHttps
      ? new https.Agent({
          ...common,
          // Parsed once for all of the agent's connections; tls.connect would parse the CA, cert
          // and key again for each (about 0.3 ms of CPU a connection). The agent is not given them
          // as well: it would base64 them into its pool's name on every request.
          secureContext: createSecureContext({ ca: opts.ca, cert: opts.cert, key: opts.key }),
          servername: opts.servername,
          ...(opts.rejectUnauthorized === undefined ? {} : { rejectUnauthorized: opts.rejectUnauthorized }),
        })
      : new http.Agent(common);
    this.agents.push({ streaming, identity, agent });
    return agent;
  }
}

/** What a request's connection presents and trusts, as applyToHTTPSOptions set it. */
type TLSIdentity = Pick<https.RequestOptions, "ca" | "cert" | "key" | "servername" | "rejectUnauthorized">;

/** One keep-alive agent, for watches or for the other requests, and the identity it connects with. */
interface PooledAgent {
  streaming: boolean;
  identity: TLSIdentity;
  agent: http.Agent;
}

/** A path (and query) that can go on a request line as it is: printable ASCII, starting with "/". */
const REQUEST_PATH = /^\/[\x21-\x7e]*$/;

const KEEPALIVE_IDLE_MS = 5_000;

/** Every RestClient of the process, for reportStalledPath. */
const liveClients = new Set<WeakRef<RestClient>>();

/** Errors from a kept-alive socket the server had closed: the request never reached it. */
const staleSocketErrors = new WeakSet<object>();

/**
 * The texts of the response's Warning headers (RFC 7234: `299 - "text"`), one per header line, as
 * client-go's warning handler prints them.
 */
export function warningsOf(res: Pick<http.IncomingMessage, "rawHeaders">): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    if (res.rawHeaders[i]!.toLowerCase() !== "warning") continue;
    const raw = res.rawHeaders[i + 1]!;
    const m = /^\d{3} \S+ "((?:[^"\\]|\\.)*)"/.exec(raw);
    out.push(m ? m[1]!.replace(/\\(.)/g, "$1") : raw);
  }
  return out;
}

/**
 * The error of a failed answer; a Retry-After header the Status body does not repeat goes into its
 * details.retryAfterSeconds (the field the API server uses for it), so a caller that retries later
 * (the reflector) can honour it.
 */
function errorWithRetryAfter(res: http.IncomingMessage, code: number, body: Buffer): ApiError {
  const err = errorFromResponse(code, body.toString("utf8"));
  const seconds = retryAfterSeconds(res, code);
  if (seconds !== undefined) err.status.details = { retryAfterSeconds: seconds, ...err.status.details };
  return err;
}

/** client-go retries 429 and 5xx answers that carry Retry-After (seconds), capped here at 10 s. */
function retryAfterMs(res: http.IncomingMessage, code: number): number | undefined {
  const seconds = retryAfterSeconds(res, code);
  return seconds === undefined ? undefined : Math.min(seconds, 10) * 1000;
}

/** The Retry-After (seconds) of a 429 or 5xx answer, if it has a valid one. */
function retryAfterSeconds(res: http.IncomingMessage, code: number): number | undefined {
  if (code !== 429 && code < 500) return undefined;
  const h = res.headers["retry-after"];
  if (h === undefined) return undefined;
  const seconds = Number(h);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
}

function readBody(res: http.IncomingMessage, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on("data", (c: Buffer) => chunks.push(c));
    res.on("end", () => resolve(Buffer.concat(chunks)));
    res.on("error", (err) => reject(signal?.aborted ? new RequestAbortedError("request aborted") : err));
    res.on("aborted", () => reject(new Error("response aborted before it was complete")));
    res.on("close", () => {
      if (!res.complete) reject(new Error("connection closed before the response was complete"));
    });
  });
}
