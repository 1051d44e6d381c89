import { describe, expect, it } from "vitest";
import { HashRing, hash32 } from "./ring.js";

const keys = Array.from({ length: 3000 }, (_, i) => `namespace-${i}`);

function owners(ring: HashRing): Map<string, string | undefined> {
  return new Map(keys.map((k) => [k, ring.owner(k)]));
}

describe("the hash ring", () => {
  it("hashes the same key to the same value, and different keys apart", () => {
    expect(hash32("team-a")).toBe(hash32("team-a"));
    expect(hash32("team-a")).not.toBe(hash32("team-b"));
    // Pinned: a change of hash would move every object on every upgrade.
    expect(hash32("team-a")).toBe(0x96c2886c);
  });

  it("has no owner when empty", () => expect(new HashRing([]).owner("x")).toBeUndefined());

  it("assigns the same owners whatever the order the members are given in", () => {
    expect(owners(new HashRing(["c", "a", "b"]))).toEqual(owners(new HashRing(["a", "b", "c"])));
  });

  it("splits keys roughly evenly over three members", () => {
    const counts = new Map<string, number>();
    for (const o of owners(new HashRing(["shard-a", "shard-b", "shard-c"])).values()) {
      counts.set(o as string, (counts.get(o as string) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual(["shard-a", "shard-b", "shard-c"]);
    for (const n of counts.values()) expect(n).toBeGreaterThan(keys.length * 0.25);
  });

  it("moves only the joining member's share when a member joins", () => {
    const before = owners(new HashRing(["shard-a", "shard-b", "shard-c"]));
    const after = owners(new HashRing(["shard-a", "shard-b", "shard-c", "shard-d"]));
    const moved = keys.filter((k) => before.get(k) !== after.get(k));
    // Every moved key went to the new member, and about a quarter moved.
    expect(new Set(moved.map((k) => after.get(k)))).toEqual(new Set(["shard-d"]));
    expect(moved.length).toBeGreaterThan(keys.length * 0.15);
    expect(moved.length).toBeLessThan(keys.length * 0.35);
  });

  it("moves only the leaving member's keys when a member leaves", () => {
    const before = owners(new HashRing(["shard-a", "shard-b", "shard-c"]));
    const after = owners(new HashRing(["shard-a", "shard-c"]));
    const moved = keys.filter((k) => before.get(k) !== after.get(k));
    expect(new Set(moved.map((k) => before.get(k)))).toEqual(new Set(["shard-b"]));
    expect(moved.length).toBe(keys.filter((k) => before.get(k) === "shard-b").length);
  });

  it("refuses a ring without virtual nodes", () =>
    expect(() => new HashRing(["a"], 0)).toThrow("virtualNodes must be a positive integer"));
});
