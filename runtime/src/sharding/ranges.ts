/**
 * Hash ranges for KEP-5866's server-side shard selection: the API server hashes a field of each
 * object (its uid or namespace) with 64-bit FNV-1a and keeps those whose hash falls in one of the
 * `shardRange(field, lo, hi)` ranges ([lo, hi)) of the list or watch's shardSelector. The members of
 * a ring split the 64-bit space as a consistent-hash ring does (points per member, each owning the
 * arc up to its point), so a join or leave moves only about 1/n of it.
 */
import { createHash } from "node:crypto";

/** [lo, hi): hi may be 2^64. */
export type HashRange = readonly [bigint, bigint];

const SPACE = 1n << 64n;
const MASK = SPACE - 1n;

/** Points per member on the range ring: few, so a member's selector stays a short query parameter. */
export const RANGE_VIRTUAL_NODES = 16;

/** 64-bit FNV-1a of a string's UTF-8 bytes: the API server's shard hash (checked in sharding.selector.int.test.ts). */
export function fnv1a64(value: string): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(value, "utf8")) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & MASK;
  }
  return h;
}

/** Math.max and Math.min take no bigint. */
function maxOf(a: bigint, b: bigint): bigint {
  return b > a ? b : a;
}

function minOf(a: bigint, b: bigint): bigint {
  return b < a ? b : a;
}

/** Sorted, merged, without empty ranges. */
export function normalize(ranges: Iterable<HashRange>): HashRange[] {
  const sorted = [...ranges]
    .filter(([lo, hi]) => lo < hi)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: [bigint, bigint][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1]) last[1] = maxOf(hi, last[1]);
    else out.push([lo, hi]);
  }
  return out;
}

export function intersect(a: readonly HashRange[], b: readonly HashRange[]): HashRange[] {
  const out: HashRange[] = [];
  for (const [alo, ahi] of a) {
    for (const [blo, bhi] of b) {
      const lo = maxOf(alo, blo);
      const hi = minOf(ahi, bhi);
      if (lo < hi) out.push([lo, hi]);
    }
  }
  return normalize(out);
}

export function subtract(a: readonly HashRange[], b: readonly HashRange[]): HashRange[] {
  let rest = normalize(a);
  for (const [blo, bhi] of b) {
    rest = rest.flatMap(([lo, hi]): HashRange[] => {
      if (bhi <= lo || blo >= hi) return [[lo, hi]];
      const parts: HashRange[] = [];
      if (lo < blo) parts.push([lo, blo]);
      if (bhi < hi) parts.push([bhi, hi]);
      return parts;
    });
  }
  return rest;
}

export function sameRanges(a: readonly HashRange[], b: readonly HashRange[]): boolean {
  const x = normalize(a);
  const y = normalize(b);
  return x.length === y.length && x.every(([lo, hi], i) => lo === y[i]?.[0] && hi === y[i]?.[1]);
}

export function contains(ranges: readonly HashRange[], hash: bigint): boolean {
  return ranges.some(([lo, hi]) => lo <= hash && hash < hi);
}

/** Each member's ranges on the ring of `members` (every member present, possibly with none). */
export function ringRanges(
  members: Iterable<string>,
  virtualNodes = RANGE_VIRTUAL_NODES,
): Map<string, HashRange[]> {
  const names = [...new Set(members)].sort();
  const points: { at: bigint; member: string }[] = [];
  for (const member of names) {
    for (let i = 0; i < virtualNodes; i++) {
      points.push({ at: createHash("sha256").update(`${member}#${i}`).digest().readBigUInt64BE(0), member });
    }
  }
  points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.member < b.member ? -1 : 1));
  const out = new Map<string, HashRange[]>(names.map((n) => [n, []]));
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return out;
  // Each point owns the arc from the point before it; the first also owns the wrap-around.
  out.get(first.member)?.push([last.at, SPACE], [0n, first.at]);
  for (let k = 1; k < points.length; k++) {
    const p = points[k] as { at: bigint; member: string };
    out.get(p.member)?.push([(points[k - 1] as { at: bigint }).at, p.at]);
  }
  for (const [member, ranges] of out) out.set(member, normalize(ranges));
  return out;
}

const byValue = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Ranges cut where the keys are: each member, in name order, gets one contiguous range holding an
 * equal share of `hashes` (at least one each), cut halfway between the hashes either side of a cut.
 * Why: FNV-1a mixes a string's last bytes least, so names that differ only at the end (team-a,
 * team-b, …) hash within a sliver of the space, and a blind ring gives one member all of them (26
 * "team-<letter>" namespaces, 26 on one of three members). Needs at least as many hashes as members.
 */
export function balancedRanges(
  members: Iterable<string>,
  hashes: Iterable<bigint>,
): Map<string, HashRange[]> {
  const names = [...new Set(members)].sort();
  const sorted = [...new Set(hashes)].sort(byValue);
  const out = new Map<string, HashRange[]>(names.map((n) => [n, []]));
  if (names.length === 0) return out;
  if (sorted.length < names.length)
    throw new Error(`balancedRanges: ${sorted.length} keys for ${names.length} members`);
  let lo = 0n;
  names.forEach((name, k) => {
    let hi = SPACE;
    if (k < names.length - 1) {
      // The first key of the next member, so every member gets at least one.
      const next = Math.min(
        Math.max(Math.round(((k + 1) * sorted.length) / names.length), k + 1),
        sorted.length - 1,
      );
      const before = sorted[next - 1] as bigint;
      hi = before + ((sorted[next] as bigint) - before + 1n) / 2n;
    }
    out.set(name, [[lo, hi]]);
    lo = hi;
  });
  return out;
}

/**
 * Whether `assign` (member → ranges) is a partition of the whole space in which every member has
 * ranges and none holds more than its even share of `hashes` plus `slack` (a fraction) plus one.
 */
export function evenSplit(
  assign: ReadonlyMap<string, readonly HashRange[]>,
  hashes: readonly bigint[],
  slack = 0.25,
): boolean {
  const all = [...assign.values()].map(normalize);
  if (all.length === 0 || all.some((r) => r.length === 0)) return false;
  let total = 0n;
  for (const rs of all) for (const [lo, hi] of rs) total += hi - lo;
  const union = normalize(all.flat());
  if (total !== SPACE || union.length !== 1 || union[0]?.[0] !== 0n || union[0]?.[1] !== SPACE) return false;
  const most = Math.floor((hashes.length / all.length) * (1 + slack)) + 1;
  return all.every((rs) => hashes.filter((h) => contains(rs, h)).length <= most);
}

function hex(v: bigint): string {
  return `0x${v.toString(16).padStart(16, "0")}`;
}

/**
 * The shardSelector for these ranges of `field`. The API server refuses an empty range, so serving
 * nothing selects [0, 1): at most the objects whose hash is exactly 0, which the reconciler skips.
 */
export function shardSelector(field: string, ranges: readonly HashRange[]): string {
  const rs = ranges.length > 0 ? ranges : [[0n, 1n] as const];
  return rs.map(([lo, hi]) => `shardRange(${field}, '${hex(lo)}', '${hex(hi)}')`).join(" || ");
}

/** "lo-hi,lo-hi" in hex: how a member publishes what it serves (an annotation on its Lease). */
export function formatRanges(ranges: readonly HashRange[]): string {
  return normalize(ranges)
    .map(([lo, hi]) => `${lo.toString(16)}-${hi.toString(16)}`)
    .join(",");
}

export function parseRanges(text: string | undefined): HashRange[] {
  if (!text) return [];
  const out: HashRange[] = [];
  for (const part of text.split(",")) {
    const m = /^([0-9a-f]+)-([0-9a-f]+)$/.exec(part.trim());
    if (!m) throw new Error(`"${part}" is not a hash range (hex lo-hi)`);
    out.push([BigInt(`0x${m[1]}`), BigInt(`0x${m[2]}`)]);
  }
  return normalize(out);
}
