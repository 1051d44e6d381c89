import { describe, expect, it } from "vitest";
import {
  type AccessReviewer,
  type AccessReviewResult,
  authenticationAndAuthorizationFilter,
  type NonResourceAttributes,
  type ReviewedUser,
  type TokenReviewResult,
} from "./filters.js";

/** A reviewer with canned answers that records what it was asked. */
function fakeReviewer(tokens: Record<string, ReviewedUser>, allowed: (u: ReviewedUser) => boolean) {
  const calls = { tokenReview: [] as string[], sar: [] as [ReviewedUser, NonResourceAttributes][] };
  let failNext: "authn" | "authz" | undefined;
  const reviewer: AccessReviewer = {
    async tokenReview(token): Promise<TokenReviewResult> {
      calls.tokenReview.push(token);
      if (failNext === "authn") {
        failNext = undefined;
        throw new Error("connection refused");
      }
      const user = tokens[token];
      return user ? { authenticated: true, user } : { authenticated: false };
    },
    async subjectAccessReview(user, attributes): Promise<AccessReviewResult> {
      calls.sar.push([user, attributes]);
      if (failNext === "authz") {
        failNext = undefined;
        throw new Error("connection refused");
      }
      return allowed(user) ? { allowed: true } : { allowed: false, reason: "no RBAC rule" };
    },
  };
  return { reviewer, calls, fail: (what: "authn" | "authz") => (failNext = what) };
}

const alice: ReviewedUser = { username: "system:serviceaccount:monitoring:prometheus", groups: ["g"] };
const bob: ReviewedUser = { username: "bob" };
const req = (authorization?: string, method = "GET") => ({
  method,
  path: "/metrics",
  headers: authorization === undefined ? {} : { authorization },
});

describe("authenticationAndAuthorizationFilter", () => {
  it("answers 401 Unauthorized without a bearer token, asking nothing", async () => {
    const f = fakeReviewer({}, () => true);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer });
    for (const h of [undefined, "", "Basic dXNlcjpwdw==", "Bearer", "Bearer "]) {
      expect(await filter(req(h))).toEqual({ allowed: false, code: 401, message: "Unauthorized" });
    }
    expect(f.calls.tokenReview).toEqual([]);
  });

  it("answers 401 for a token the TokenReview does not authenticate", async () => {
    const f = fakeReviewer({ good: alice }, () => true);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer });
    expect(await filter(req("Bearer bad"))).toMatchObject({ allowed: false, code: 401 });
    expect(f.calls.sar).toEqual([]);
  });

  it("asks the SubjectAccessReview for the request's path and lower-cased verb; 403 names the user", async () => {
    const f = fakeReviewer({ a: alice, b: bob }, (u) => u === alice);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer });
    expect(await filter(req("bearer a"))).toEqual({ allowed: true, user: alice });
    expect(await filter(req("Bearer b", "HEAD"))).toEqual({
      allowed: false,
      code: 403,
      message: "Authorization denied for user bob",
    });
    expect(f.calls.sar).toEqual([
      [alice, { path: "/metrics", verb: "get" }],
      [bob, { path: "/metrics", verb: "head" }],
    ]);
  });

  it("answers 500 when a review cannot be made, and does not cache the failure", async () => {
    const f = fakeReviewer({ a: alice }, () => true);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer });
    f.fail("authn");
    expect(await filter(req("Bearer a"))).toEqual({
      allowed: false,
      code: 500,
      message: "Authentication failed",
    });
    f.fail("authz");
    expect(await filter(req("Bearer a"))).toEqual({
      allowed: false,
      code: 500,
      message: `Authorization for user ${alice.username} failed`,
    });
    expect(await filter(req("Bearer a"))).toMatchObject({ allowed: true });
    expect(f.calls.tokenReview).toHaveLength(2); // the failed one, then one cached answer
    expect(f.calls.sar).toHaveLength(2);
  });

  it("caches TokenReviews 1 min, allowed reviews 5 min and denied ones 30 s", async () => {
    let now = 0;
    let allowBob = false;
    const f = fakeReviewer({ a: alice, b: bob }, (u) => u === alice || allowBob);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer, now: () => now });
    await filter(req("Bearer a"));
    await filter(req("Bearer b"));
    allowBob = true;
    now = 29_000;
    expect(await filter(req("Bearer b"))).toMatchObject({ code: 403 }); // deny still cached
    expect(f.calls.tokenReview).toHaveLength(2);
    now = 31_000;
    expect(await filter(req("Bearer b"))).toMatchObject({ allowed: true }); // deny expired
    expect(f.calls.sar).toHaveLength(3);
    now = 61_000;
    await filter(req("Bearer a"));
    await filter(req("Bearer b"));
    expect(f.calls.tokenReview).toHaveLength(4); // both tokens reviewed again after 1 min
    expect(f.calls.sar).toHaveLength(3); // alice's allow lasts 5 min
    now = 301_000;
    await filter(req("Bearer a"));
    expect(f.calls.sar).toHaveLength(4);
  });

  it("shares one review between concurrent requests with the same token", async () => {
    const f = fakeReviewer({ a: alice }, () => true);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer });
    const answers = await Promise.all(Array.from({ length: 5 }, () => filter(req("Bearer a"))));
    expect(answers.every((a) => a.allowed)).toBe(true);
    expect(f.calls.tokenReview).toHaveLength(1);
    expect(f.calls.sar).toHaveLength(1);
  });

  it("keeps at most maxCacheEntries tokens", async () => {
    const tokens = Object.fromEntries(Array.from({ length: 3 }, (_, i) => [`t${i}`, { username: `u${i}` }]));
    const f = fakeReviewer(tokens, () => true);
    const filter = authenticationAndAuthorizationFilter({ reviewer: f.reviewer, maxCacheEntries: 2 });
    for (const t of ["t0", "t1", "t2", "t0"]) await filter(req(`Bearer ${t}`));
    expect(f.calls.tokenReview).toEqual(["t0", "t1", "t2", "t0"]); // t0 was evicted by t2
  });
});
