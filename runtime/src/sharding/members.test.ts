import { describe, expect, it } from "vitest";
import type { Lease } from "../api/kinds.js";
import { firstExpiry, MemberTracker } from "./members.js";

function lease(name: string, holder: string, renewTime: string, resourceVersion?: string): Lease {
  return {
    metadata: { name, resourceVersion },
    spec: { holderIdentity: holder, leaseDurationSeconds: 3, renewTime },
  };
}

describe("the members of a ring", () => {
  it("are live while their Lease changes within its duration, on our clock", () => {
    let now = 1_000_000;
    const tracker = new MemberTracker(() => now);
    expect(
      tracker.observe([lease("b", "b", "t0"), lease("a", "a", "t0")]).map((m) => [m.name, m.state]),
    ).toEqual([
      ["a", "live"],
      ["b", "live"],
    ]);
    now += 2_500;
    // a renewed; b did not.
    tracker.observe([lease("a", "a", "t1"), lease("b", "b", "t0")]);
    now += 1_000;
    expect(tracker.observe([lease("a", "a", "t1"), lease("b", "b", "t0")]).map((m) => m.state)).toEqual([
      "live",
      "expired",
    ]);
  });

  it("counts a Lease held by someone else, or by no one, as dead at once", () => {
    const tracker = new MemberTracker(() => 0);
    expect(tracker.observe([lease("a", "sharder", "t0"), lease("b", "", "t0")]).map((m) => m.state)).toEqual([
      "dead",
      "dead",
    ]);
  });

  it("judges a Lease by when it changed, not by its renewTime (clock skew between replicas)", () => {
    let now = 0;
    const tracker = new MemberTracker(() => now);
    tracker.observe([lease("a", "a", "1999-01-01T00:00:00.000000Z")]);
    now += 2_000;
    expect(tracker.observe([lease("a", "a", "1999-01-01T00:00:00.000000Z")])[0]?.state).toBe("live");
  });

  it("times a renewal from when the watch delivered it, not from the next list", () => {
    let now = 0;
    const tracker = new MemberTracker(() => now);
    tracker.observe([lease("a", "a", "t0", "10"), lease("b", "b", "t0", "11")]);
    now = 400;
    tracker.saw(lease("a", "a", "t1", "12"));
    now = 900;
    const [a, b] = tracker.observe([lease("a", "a", "t1", "12"), lease("b", "b", "t0", "11")]);
    expect(a?.unchangedForMs).toBe(500);
    expect(a?.expiresAt).toBe(3_400);
    expect(b?.expiresAt).toBe(3_000);
    // The sharder's next round is due when b would expire; its own Lease does not count.
    expect(
      firstExpiry(
        [a, b].filter((m) => m !== undefined),
        "b",
      ),
    ).toBe(3_400);
    expect(
      firstExpiry(
        [a, b].filter((m) => m !== undefined),
        "x",
      ),
    ).toBe(3_000);
  });

  it("does not take an older version, from a watch or a list behind the other, for a renewal", () => {
    let now = 0;
    const tracker = new MemberTracker(() => now);
    tracker.observe([lease("a", "a", "t2", "20")]);
    now = 2_000;
    // A watch behind the list delivers the version before.
    tracker.saw(lease("a", "a", "t1", "15"));
    now = 3_000;
    expect(tracker.observe([lease("a", "a", "t2", "20")])[0]?.state).toBe("expired");
    // And a list behind the watch.
    const fresh = new MemberTracker(() => now);
    fresh.saw(lease("a", "a", "t3", "30"));
    now = 5_000;
    expect(fresh.observe([lease("a", "a", "t2", "20")])[0]?.unchangedForMs).toBe(2_000);
  });

  it("judges a member by the newest version seen: a list behind the watch does not undo a takeover", () => {
    let now = 0;
    const tracker = new MemberTracker(() => now);
    tracker.observe([lease("b", "b", "t0", "10")]);
    now = 3_000;
    tracker.saw(lease("b", "sharder", "t1", "12"));
    now = 3_100;
    const [b] = tracker.observe([lease("b", "b", "t0", "10")]);
    expect(b?.state).toBe("dead");
    expect(b?.lease.spec?.holderIdentity).toBe("sharder");
  });

  it("counts no expiry while no other member is live", () => {
    const tracker = new MemberTracker(() => 0);
    expect(firstExpiry(tracker.observe([lease("a", "a", "t0"), lease("b", "sharder", "t0")]), "a")).toBe(
      undefined,
    );
  });
});
