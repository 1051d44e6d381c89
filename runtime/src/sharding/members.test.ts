import { describe, expect, it } from "vitest";
import type { Lease } from "../api/kinds.js";
import { MemberTracker } from "./members.js";

function lease(name: string, holder: string, renewTime: string): Lease {
  return { metadata: { name }, spec: { holderIdentity: holder, leaseDurationSeconds: 3, renewTime } };
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
});
