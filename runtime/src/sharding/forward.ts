/**
 * Admission forwarding to the shard owner: a webhook whose answer depends on a sharded cache (e.g. the
 * pods of the request's namespace) is answered by the replica that owns that namespace. Any replica
 * may receive the request (the Service picks one); it answers from its own cache only when it owns
 * the namespace and its cache holds all of it, and otherwise POSTs the same AdmissionReview to the
 * owner's webhook address (published on the owner's shard Lease) and returns the owner's answer.
 *
 * During a handover no member may serve the namespace for a moment (the old owner gave its range up,
 * the new one has not listed it yet): the request waits a little for a ready owner, and then is
 * answered by onUnavailable, as it is when the forward fails. A forwarded request carries
 * x-kbts-forwarded-by and is never forwarded again, so views of the ring that differ cannot loop.
 */
import { X509Certificate } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { Agent, request as httpsRequest, type RequestOptions } from "node:https";
import { isIP } from "node:net";
import type { Duplex } from "node:stream";
import type { TLSSocket } from "node:tls";
import { sleepUnlessAborted } from "../internal/sleep.js";
import { nopLogger } from "../log/logger.js";
import type { Logger } from "../log/types.js";
import { webhookForwardedTotal } from "../metrics/sharding.js";
import {
  type AdmissionRequest,
  type AdmissionResult,
  type AdmissionRouter,
  deniedResponse,
} from "../webhook/admission.js";
import type { ServedCertificate } from "../webhook/server.js";
import { splitHostPort } from "./owner.js";
import type { ShardTarget } from "./shard.js";

/** Set on a forwarded request to the identity of the replica that forwarded it. */
export const FORWARDED_BY_HEADER = "x-kbts-forwarded-by";

/** Set on the answer to a forwarded request that the receiver could not answer: the forwarder asks again. */
export const UNAVAILABLE_HEADER = "x-kbts-unavailable";

export interface ForwardToShardOwnerOptions {
  /**
   * The answer when no ready owner answers: none serves the namespace yet (a handover), the owner
   * cannot be reached, or (on the owner) a forwarded request arrived before it was ready. Default:
   * denied, naming the namespace and the reason, asking to try again (unavailableResult).
   */
  onUnavailable?: (request: AdmissionRequest, reason: string) => AdmissionResult | Promise<AdmissionResult>;
  /** How long a request waits for a ready owner during a handover (default 3000 ms). */
  waitMs?: number;
  /**
   * How long a request may take in all, forwarding included (default 7000 ms: inside the API server's
   * default webhook timeout of 10 s, with time left for onUnavailable).
   */
  timeoutMs?: number;
}

/** What the forwarding router needs of the shard (the Shard; a stand-in in tests). */
export interface ShardRouting {
  readonly identity: string;
  readyFor(namespace: string): boolean;
  claims(namespace: string): boolean;
  targetFor(namespace: string): ShardTarget | undefined;
}

/**
 * POSTs a review body to a member's webhook address and path; resolves with the HTTP status and body,
 * and whether the answer says the member could not answer (UNAVAILABLE_HEADER).
 */
export type PeerPost = (
  address: string,
  path: string,
  body: Buffer,
  timeoutMs: number,
) => Promise<PeerAnswer>;

export interface PeerAnswer {
  status: number;
  body: Buffer;
  unavailable: boolean;
}

/** The default onUnavailable: denied, so the client retries rather than being admitted unchecked. */
export function unavailableResult(request: AdmissionRequest, reason: string): AdmissionResult {
  return deniedResponse(
    `no replica can answer for namespace "${request.namespace ?? ""}" now: ${reason}; try again`,
  );
}

const DEFAULT_WAIT_MS = 3_000;
const DEFAULT_TIMEOUT_MS = 7_000;
const POLL_MS = 50;
/** After a peer said it does not serve the namespace: the ring's view changes only every retry period. */
const PEER_UNAVAILABLE_PAUSE_MS = 200;
/** How long a member taking a namespace up lets a forwarded request wait for it. */
const FORWARDED_WAIT_MS = 1_000;
/** A review answer is small; a peer sending more than the request limit is not a webhook. */
const MAX_ANSWER_BYTES = 7 * 1024 * 1024;

/**
 * The router a forwarding webhook serves with (see the module comment): undefined (answer here) when
 * this replica is ready for the request's namespace, else the owner's answer or onUnavailable's.
 * Requests without a namespace (cluster-scoped objects) are answered here.
 */
export function shardOwnerRouter(
  shard: ShardRouting,
  webhook: string,
  post: PeerPost,
  options: ForwardToShardOwnerOptions & { logger?: Logger } = {},
): AdmissionRouter {
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const onUnavailable = options.onUnavailable ?? unavailableResult;
  const log = (options.logger ?? nopLogger()).child({ component: "shard-forward", webhook });
  return async (request, body, req) => {
    const namespace = request.namespace;
    if (!namespace) return undefined;
    const start = Date.now();
    const unavailable = async (
      result: "unavailable" | "error",
      reason: string,
      headers?: Record<string, string>,
    ) => {
      webhookForwardedTotal.inc({ webhook, result });
      log.info({ namespace, uid: request.uid, reason }, "admission request unavailable");
      return { result: await onUnavailable(request, reason), headers };
    };
    const forwardedBy = forwardedByOf(req);
    if (forwardedBy !== undefined) {
      // Answered here or not at all (forwarding it on could loop); waited for only while this member
      // is taking the namespace up, and briefly, so the forwarder has time to ask the right one.
      const until = start + Math.min(FORWARDED_WAIT_MS, waitMs);
      while (!shard.readyFor(namespace)) {
        if (!shard.claims(namespace) || Date.now() >= until) {
          return unavailable(
            "unavailable",
            `forwarded by ${forwardedBy} to ${shard.identity}, which does not serve it (yet)`,
            { [UNAVAILABLE_HEADER]: shard.identity },
          );
        }
        await sleepUnlessAborted(POLL_MS);
      }
      return undefined;
    }
    let reason = "no replica serves it yet (a handover is in progress)";
    for (;;) {
      let pause = POLL_MS;
      if (shard.readyFor(namespace)) return undefined;
      const target = shard.targetFor(namespace);
      if (target?.webhook) {
        const path = new URL(req.url ?? "/", "https://webhook").pathname;
        try {
          const answer = await post(
            target.webhook,
            path,
            body,
            Math.max(timeoutMs - (Date.now() - start), 1),
          );
          // Not (or not yet) the owner: this replica's view of the ranges was behind; ask again.
          if (answer.unavailable) {
            reason = `${target.member} does not serve it (yet)`;
            pause = PEER_UNAVAILABLE_PAUSE_MS;
          } else {
            checkAnswer(answer, request.uid);
            webhookForwardedTotal.inc({ webhook, result: "forwarded" });
            log.debug({ namespace, uid: request.uid, to: target.member }, "admission request forwarded");
            return { forwarded: answer.body };
          }
        } catch (err) {
          return unavailable(
            "error",
            `forwarding to ${target.member} (${target.webhook}) failed: ${(err as Error).message}`,
          );
        }
      }
      if (Date.now() - start >= waitMs) break;
      await sleepUnlessAborted(pause);
    }
    return unavailable("unavailable", reason);
  };
}

function forwardedByOf(req: IncomingMessage): string | undefined {
  const v = req.headers[FORWARDED_BY_HEADER];
  return Array.isArray(v) ? v[0] : v;
}

/** The peer answered a review for this request (200, an AdmissionReview with its uid). */
function checkAnswer(answer: PeerAnswer, uid: string): void {
  if (answer.status !== 200) {
    throw new Error(`HTTP ${answer.status}: ${answer.body.toString("utf8").slice(0, 200)}`);
  }
  let review: { kind?: unknown; response?: { uid?: unknown } } | null;
  try {
    review = JSON.parse(answer.body.toString("utf8"));
  } catch {
    throw new Error("the answer is not JSON");
  }
  if (review?.kind !== "AdmissionReview" || review.response?.uid !== uid) {
    throw new Error("the answer is not an AdmissionReview for this request");
  }
}

/**
 * Whom a forwarding replica trusts, from the certificate its own webhook server serves. The replicas
 * mount one serving Secret, whose certificate names the Service, not each pod's IP: the peer is checked
 * against our certificate's first DNS name (sent as SNI) rather than the IP dialled. With ca.crt
 * (cert-manager, the cert rotator) any certificate that CA issued for that name is trusted, so a
 * rotation that reaches replicas at different moments does not break forwarding; without it, the
 * only anchor there is is our own certificate, so the peer must present exactly that one (pinned).
 */
interface PeerTrust {
  servername: string | undefined;
  ca: Buffer | undefined;
  fingerprint256: string;
  clientCert: { cert: Buffer; key: Buffer } | undefined;
}

function trustOf(serving: ServedCertificate): PeerTrust {
  const own = new X509Certificate(serving.cert);
  const dns = (own.subjectAltName ?? "")
    .split(", ")
    .find((n) => n.startsWith("DNS:"))
    ?.slice(4);
  return {
    servername: dns,
    ca: serving.ca,
    fingerprint256: own.fingerprint256,
    // A server that requires client certificates (clientCAName) gets ours, the shared serving pair.
    clientCert: serving.requiresClientCert ? { cert: serving.cert, key: serving.key } : undefined,
  };
}

/**
 * How long a connection to a peer stays open unused: well under the webhook server's keep-alive (90 s;
 * Node's agent also honours a shorter Keep-Alive hint), so the peer does not close one as it is reused,
 * and long enough to carry a burst of admissions.
 */
const IDLE_MS = 15_000;
/** Connections to one peer: admissions in flight at once beyond this wait for one (within their deadline). */
const MAX_SOCKETS_PER_PEER = 16;
const MAX_IDLE_PER_PEER = 4;

interface Trusted {
  serving: ServedCertificate;
  trust: PeerTrust;
  agent: PeerAgent;
}

/**
 * The trust in use and its connection pool. The webhook server's CertWatcher follows the files the
 * cert rotator and cert-manager rewrite, and gives a new certificate object when they change; a new
 * certificate gets a new trust and a new pool, so no connection verified under the old one carries
 * another review.
 */
class TrustCache {
  private current: Trusted | undefined;

  get(serving: ServedCertificate): Trusted {
    const c = this.current;
    if (c?.serving === serving) return c;
    const trust = trustOf(serving);
    const next = { serving, trust, agent: new PeerAgent(trust) };
    c?.agent.retire();
    this.current = next;
    return next;
  }
}

/**
 * Keep-alive connections to the peers, all made with one trust. A new connection holds what its
 * request writes until the handshake is done and the peer checked, so no byte of a review reaches a
 * peer we do not trust; a pooled connection was checked when it was made.
 */
class PeerAgent extends Agent {
  private retired = false;
  private readonly checked = new WeakSet<Duplex>();

  constructor(private readonly trust: PeerTrust) {
    super({
      keepAlive: true,
      timeout: IDLE_MS,
      maxSockets: MAX_SOCKETS_PER_PEER,
      maxFreeSockets: MAX_IDLE_PER_PEER,
      // The most recently used connection first: the others idle out when the load drops.
      scheduling: "lifo",
      // No TLS session resumption: a resumed session shows no peer certificate to pin, and Node skips
      // its name check on one; every new connection is checked in full (kept ones make it rare).
      maxCachedSessions: 0,
      // "" rather than undefined: the agent would otherwise take the Host header for SNI.
      servername: trust.servername && isIP(trust.servername) === 0 ? trust.servername : "",
      ca: trust.ca,
      // Pinned: the chain cannot be verified without a CA; the fingerprint is checked instead.
      rejectUnauthorized: trust.ca !== undefined,
      // With a CA, Node checks the peer's names against servername (our DNS name), else the host.
      ...(trust.ca ? {} : { checkServerIdentity: () => undefined }),
      minVersion: "TLSv1.2",
      ALPNProtocols: ["http/1.1"],
      ...trust.clientCert,
    });
  }

  // Returned at once rather than through the callback once checked: the agent counts a connection
  // against maxSockets only once it has it, so every request would open its own while handshakes run.
  override createConnection(options: RequestOptions): Duplex {
    // https.Agent's: tls.connect with the agent's options.
    const socket = super.createConnection(options) as TLSSocket;
    // Corked, the request's writes stay in the stream until the peer passed the check below; an
    // aborted request destroys the socket, handshake and all.
    socket.cork();
    socket.once("secureConnect", () => {
      const refused = this.refusal(socket);
      if (refused) {
        socket.destroy(refused);
        return;
      }
      this.checked.add(socket);
      socket.uncork();
    });
    return socket;
  }

  /** Whether the socket's peer was checked (its handshake is done). */
  passed(socket: Duplex): boolean {
    return this.checked.has(socket);
  }

  /** Why a handshaken peer is not trusted, if it is not. */
  private refusal(socket: TLSSocket): Error | undefined {
    if (this.trust.ca) {
      // Node refused an unverified chain already (rejectUnauthorized); checked again for certain.
      return socket.authorized
        ? undefined
        : new Error(`the peer is not trusted: ${socket.authorizationError}`);
    }
    if (socket.getPeerCertificate().fingerprint256 !== this.trust.fingerprint256) {
      return new Error(
        "the peer's certificate is not this replica's serving certificate (no ca.crt to verify by)",
      );
    }
    return undefined;
  }

  /** A retired agent's connections close when their request is done instead of idling (see retire). */
  override keepSocketAlive(socket: Duplex): boolean {
    if (this.retired) return false;
    // Node's returns whether the socket may be kept (its typings say void).
    return super.keepSocketAlive(socket) as unknown as boolean;
  }

  /** The trust changed: idle connections close now, busy ones when their request is done. */
  retire(): void {
    this.retired = true;
    for (const sockets of Object.values(this.freeSockets)) for (const s of sockets ?? []) s.destroy();
  }

  /** One pooled connection to this peer was dead (it restarted, say): its other idle ones likely are. */
  dropIdle(host: string, port: number): void {
    for (const s of this.freeSockets[this.getName({ ...this.options, host, port })] ?? []) s.destroy();
  }
}

/**
 * A reused connection failed before any answer came: the peer had closed it (restarted, or timed it
 * out as we sent). Sending the review again is safe: an admission webhook may be called again for one
 * request (the API server retries too).
 */
class StaleConnectionError extends Error {}

interface Forward {
  host: string;
  port: number;
  path: string;
  body: Buffer;
  hostHeader: string;
  identity: string;
  deadline: AbortSignal;
}

/**
 * PeerPost over HTTPS with the trust above, from `identity` (the x-kbts-forwarded-by header). `serving`
 * gives the webhook server's certificate in use, once it has started. Connections are kept and reused:
 * a forward on the admission path then costs a round trip, not a TLS handshake.
 */
export function httpsPeerPost(serving: () => ServedCertificate | undefined, identity: string): PeerPost {
  const trusted = new TrustCache();
  return async (address, path, body, timeoutMs) => {
    const certificate = serving();
    if (!certificate) {
      throw new Error(
        "this replica's webhook server has no serving certificate to share (not started yet, or not kbts's HTTPS server)",
      );
    }
    const { trust, agent } = trusted.get(certificate);
    const { host, port } = splitHostPort(address);
    const forward: Forward = {
      host,
      port,
      path,
      body,
      hostHeader: trust.servername ?? host,
      identity,
      deadline: AbortSignal.timeout(timeoutMs),
    };
    try {
      return await postVia(agent, forward);
    } catch (err) {
      if (!(err instanceof StaleConnectionError)) throw err;
      // Once more, on a new connection, within the same deadline.
      agent.dropIdle(host, port);
      return postVia(agent, forward);
    }
  };
}

function postVia(agent: PeerAgent, f: Forward): Promise<PeerAnswer> {
  return new Promise((resolve, reject) => {
    let socket: Duplex | undefined;
    let answered = false;
    const options: RequestOptions = {
      agent,
      host: f.host,
      port: f.port,
      method: "POST",
      path: f.path,
      signal: f.deadline,
      headers: {
        host: f.hostHeader,
        "content-type": "application/json",
        "content-length": f.body.length,
        [FORWARDED_BY_HEADER]: f.identity,
      },
    };
    const req = httpsRequest(options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new Error("the answer is too large"));
        else chunks.push(c);
      });
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          unavailable: res.headers[UNAVAILABLE_HEADER] !== undefined,
        }),
      );
      res.on("error", reject);
    });
    req.once("socket", (s) => {
      socket = s;
    });
    req.on("error", (err: NodeJS.ErrnoException) => {
      if (f.deadline.aborted) {
        const connected = socket !== undefined && agent.passed(socket);
        reject(new Error(connected ? "timed out waiting for the answer" : "timed out connecting"));
      } else if (req.reusedSocket && !answered && (err.code === "ECONNRESET" || err.code === "EPIPE")) {
        reject(new StaleConnectionError(err.message, { cause: err }));
      } else {
        reject(err);
      }
    });
    req.end(f.body);
  });
}
