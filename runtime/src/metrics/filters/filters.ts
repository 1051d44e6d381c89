import { createHash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { RestClient } from "../../client/rest.js";
import type { Logger } from "../../log/types.js";

/** The user a TokenReview returns (authentication.k8s.io/v1 UserInfo). */
export interface ReviewedUser {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface TokenReviewResult {
  authenticated: boolean;
  user?: ReviewedUser;
}

/** What a SubjectAccessReview is asked for the metrics endpoint: a non-resource URL and a verb. */
export interface NonResourceAttributes {
  path: string;
  verb: string;
}

export interface AccessReviewResult {
  allowed: boolean;
  reason?: string;
}

/** Asks the API server who a bearer token belongs to and whether that user may do something. */
export interface AccessReviewer {
  tokenReview(token: string): Promise<TokenReviewResult>;
  subjectAccessReview(user: ReviewedUser, attributes: NonResourceAttributes): Promise<AccessReviewResult>;
}

/** The filter's answer for one request: go on to the handler, or answer with this status and body. */
export type FilterDecision =
  | { allowed: true; user: ReviewedUser }
  | { allowed: false; code: 401 | 403 | 500; message: string };

/** Decides from a request's method, path and headers whether /metrics may be served. */
export type MetricsFilter = (request: {
  method?: string;
  path: string;
  headers: IncomingHttpHeaders;
}) => Promise<FilterDecision>;

export interface AuthnAuthzFilterOptions {
  reviewer: AccessReviewer;
  logger?: Logger;
  /** TokenReview answers (authenticated or not) are kept this long: 1 min, as controller-runtime. */
  authnCacheTtlMs?: number;
  /** Allowed SubjectAccessReview answers: 5 min, as controller-runtime. */
  authzAllowCacheTtlMs?: number;
  /** Denied SubjectAccessReview answers: 30 s, as controller-runtime. */
  authzDenyCacheTtlMs?: number;
  /** Entries kept per cache before the oldest is dropped (bounds memory under a flood of bad tokens). */
  maxCacheEntries?: number;
  now?: () => number;
}

/** TokenReview and SubjectAccessReview have controller-runtime's 10 s timeout. */
const REVIEW_TIMEOUT_MS = 10_000;

/**
 * controller-runtime's filters.WithAuthenticationAndAuthorization: the bearer token is checked with a
 * TokenReview (401 "Unauthorized" when missing or not authenticated), then the user with a
 * SubjectAccessReview for the request's path and lower-cased method (403 when not allowed). A review
 * that fails (API server unreachable) answers 500 and is not cached, so the next scrape asks again.
 */
export function authenticationAndAuthorizationFilter(options: AuthnAuthzFilterOptions): MetricsFilter {
  const now = options.now ?? Date.now;
  const max = options.maxCacheEntries ?? 1024;
  const authn = new TtlCache<TokenReviewResult>(max, now);
  const authz = new TtlCache<AccessReviewResult>(max, now);
  const authnTtl = options.authnCacheTtlMs ?? 60_000;
  const allowTtl = options.authzAllowCacheTtlMs ?? 5 * 60_000;
  const denyTtl = options.authzDenyCacheTtlMs ?? 30_000;
  const log = options.logger;

  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (token === undefined) return { allowed: false, code: 401, message: "Unauthorized" };

    let review: TokenReviewResult;
    try {
      const key = createHash("sha256").update(token).digest("hex");
      review = await authn.get(
        key,
        () => options.reviewer.tokenReview(token),
        () => authnTtl,
      );
    } catch (err) {
      log?.error({ err }, "Authentication failed");
      return { allowed: false, code: 500, message: "Authentication failed" };
    }
    if (!review.authenticated || !review.user) {
      return { allowed: false, code: 401, message: "Unauthorized" };
    }

    const user = review.user;
    const attributes = { path: request.path, verb: (request.method ?? "GET").toLowerCase() };
    let access: AccessReviewResult;
    try {
      const key = JSON.stringify([user.username, user.uid, user.groups, user.extra, attributes]);
      access = await authz.get(
        key,
        () => options.reviewer.subjectAccessReview(user, attributes),
        (r) => (r.allowed ? allowTtl : denyTtl),
      );
    } catch (err) {
      const message = `Authorization for user ${user.username} failed`;
      log?.error({ err }, message);
      return { allowed: false, code: 500, message };
    }
    if (!access.allowed) {
      const message = `Authorization denied for user ${user.username}`;
      log?.debug({ reason: access.reason, ...attributes }, message);
      return { allowed: false, code: 403, message };
    }
    return { allowed: true, user };
  };
}

/** The apiserver's bearer-token rule: `Authorization: Bearer <token>`, scheme case-insensitive. */
function bearerToken(header: string | undefined): string | undefined {
  const parts = (header ?? "").trim().split(" ");
  if (parts.length < 2 || parts[0]?.toLowerCase() !== "bearer") return undefined;
  return parts[1] || undefined;
}

/** Answers kept per key until they expire; concurrent lookups of one key share one review; failures are not kept. */
class TtlCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; expires: number }>();

  constructor(
    private readonly max: number,
    private readonly now: () => number,
  ) {}

  get(key: string, load: () => Promise<T>, ttl: (value: T) => number): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && hit.expires > this.now()) return hit.value;
    if (hit) this.entries.delete(key);
    const entry = { value: load(), expires: Number.POSITIVE_INFINITY }; // in flight: shared until answered
    this.entries.set(key, entry);
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    entry.value.then(
      (v) => {
        entry.expires = this.now() + ttl(v);
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }
}

/** TokenReview and SubjectAccessReview through the runtime's REST client (counted in rest_client_requests_total). */
export function restAccessReviewer(rest: RestClient): AccessReviewer {
  return {
    async tokenReview(token) {
      const res = await rest.request<{
        status?: { authenticated?: boolean; user?: ReviewedUser; error?: string };
      }>({
        method: "POST",
        path: "/apis/authentication.k8s.io/v1/tokenreviews",
        body: { apiVersion: "authentication.k8s.io/v1", kind: "TokenReview", spec: { token } },
        timeoutMs: REVIEW_TIMEOUT_MS,
      });
      const status = res?.status;
      return { authenticated: status?.authenticated === true, user: status?.user };
    },
    async subjectAccessReview(user, attributes) {
      const res = await rest.request<{ status?: { allowed?: boolean; reason?: string } }>({
        method: "POST",
        path: "/apis/authorization.k8s.io/v1/subjectaccessreviews",
        body: {
          apiVersion: "authorization.k8s.io/v1",
          kind: "SubjectAccessReview",
          spec: {
            user: user.username,
            uid: user.uid,
            groups: user.groups,
            extra: user.extra,
            nonResourceAttributes: attributes,
          },
        },
        timeoutMs: REVIEW_TIMEOUT_MS,
      });
      return { allowed: res?.status?.allowed === true, reason: res?.status?.reason };
    },
  };
}
