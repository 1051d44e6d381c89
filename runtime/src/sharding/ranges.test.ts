import { describe, expect, it } from "vitest";
import {
  balancedRanges,
  contains,
  evenSplit,
  fnv1a64,
  formatRanges,
  type HashRange,
  intersect,
  parseRanges,
  ringRanges,
  sameRanges,
  shardSelector,
  subtract,
} from "./ranges.js";

const SPACE = 1n << 64n;
const total = (rs: readonly HashRange[]) => rs.reduce((n, [lo, hi]) => n + (hi - lo), 0n);

describe("hash ranges", () => {
  it("hashes as the API server does (64-bit FNV-1a)", () => {
    expect(fnv1a64("")).toBe(0xcbf29ce484222325n);
    expect(fnv1a64("a")).toBe(0xaf63dc4c8601ec8cn);
  });

  it("intersects, subtracts and compares", () => {
    const a: HashRange[] = [
      [0n, 10n],
      [20n, 30n],
    ];
    expect(intersect(a, [[5n, 25n]])).toEqual([
      [5n, 10n],
      [20n, 25n],
    ]);
    expect(subtract(a, [[5n, 25n]])).toEqual([
      [0n, 5n],
      [25n, 30n],
    ]);
    expect(
      sameRanges(
        [
          [0n, 5n],
          [5n, 10n],
        ],
        [[0n, 10n]],
      ),
    ).toBe(true);
    expect(contains(a, 10n)).toBe(false);
    expect(contains(a, 29n)).toBe(true);
  });

  it("splits the whole space between the members, without overlap", () => {
    const ranges = ringRanges(["a", "b", "c"]);
    const all = [...ranges.values()];
    expect(all.reduce((n, rs) => n + total(rs), 0n)).toBe(SPACE);
    expect(intersect(all[0] ?? [], all[1] ?? [])).toEqual([]);
    for (const rs of all) expect(total(rs)).toBeGreaterThan(SPACE / 8n);
  });

  it("moves only the joiner's share when a member joins", () => {
    const before = ringRanges(["a", "b", "c"]);
    const after = ringRanges(["a", "b", "c", "d"]);
    for (const m of ["a", "b", "c"]) {
      // What each member keeps is a subset of what it had: nothing moves between old members.
      expect(subtract(after.get(m) ?? [], before.get(m) ?? [])).toEqual([]);
    }
  });

  it("writes a selector the API server takes, and publishes ranges that read back the same", () => {
    expect(shardSelector("object.metadata.uid", [[0n, SPACE / 2n]])).toBe(
      "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')",
    );
    expect(shardSelector("object.metadata.uid", [])).toBe(
      "shardRange(object.metadata.uid, '0x0000000000000000', '0x0000000000000001')",
    );
    const rs = ringRanges(["a", "b"]).get("a") ?? [];
    expect(parseRanges(formatRanges(rs))).toEqual(rs);
    expect(() => parseRanges("zz")).toThrow('"zz" is not a hash range');
  });
});

describe("ranges cut where the namespaces are", () => {
  const members = ["shard-0", "shard-1", "shard-2"];
  const teams = Array.from({ length: 26 }, (_, i) => fnv1a64(`team-${String.fromCharCode(97 + i)}`));
  const count = (rs: readonly HashRange[], hashes: bigint[]) => hashes.filter((h) => contains(rs, h)).length;

  it("split names FNV-1a clusters evenly, where the ring gives one member all of them", () => {
    const ring = ringRanges(members);
    expect(Math.max(...members.map((m) => count(ring.get(m) ?? [], teams)))).toBe(26);
    const balanced = balancedRanges(members, teams);
    expect(members.map((m) => count(balanced.get(m) ?? [], teams))).toEqual([9, 8, 9]);
    // One contiguous range each, together the whole space.
    expect(members.map((m) => balanced.get(m)?.length)).toEqual([1, 1, 1]);
    expect(members.reduce((n, m) => n + total(balanced.get(m) ?? []), 0n)).toBe(SPACE);
    expect(evenSplit(balanced, teams)).toBe(true);
  });

  it("gives every member a key when there are as many keys as members", () => {
    const three = teams.slice(0, 3);
    const balanced = balancedRanges(members, three);
    expect(members.map((m) => count(balanced.get(m) ?? [], three))).toEqual([1, 1, 1]);
    expect(() => balancedRanges(members, three.slice(0, 2))).toThrow("2 keys for 3 members");
  });

  it("keeps a split that is still even, and not one that is lopsided, partial or overlapping", () => {
    const balanced = balancedRanges(members, teams);
    // A new namespace or two leave it even enough: nothing moves.
    expect(evenSplit(balanced, [...teams, fnv1a64("team-za"), fnv1a64("team-zb")])).toBe(true);
    expect(evenSplit(ringRanges(members), teams)).toBe(false);
    const [a, b] = members as [string, string];
    expect(
      evenSplit(
        new Map([
          [a, balanced.get(a) ?? []],
          [b, balanced.get(b) ?? []],
        ]),
        teams,
      ),
    ).toBe(false);
    expect(evenSplit(new Map([...balanced, [a, [[0n, SPACE]] as HashRange[]]]), teams)).toBe(false);
    expect(evenSplit(new Map([...balanced, ["shard-3", []]]), teams)).toBe(false);
  });
});
