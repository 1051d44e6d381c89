/**
 * The chaos harness's "no non-leader writes" judgement on synthetic logs: a leader's writes pass, and
 * a write by a follower that never led, by a replica before its first lease, and by a deposed leader
 * are each flagged; only an in-flight write of a paused leader, logged just after its resume, passes.
 */
import { describe, expect, it } from "vitest";
import { leadingIntervals, nonLeaderWrites, type ReplicaLog } from "./leadership.js";

const T = Date.UTC(2026, 11, 2, 12, 0, 0);
const at = (s: number) => T + s * 1000;
const replica = (name: string, r: Partial<ReplicaLog> = {}): ReplicaLog => ({
  name,
  acquired: [],
  writes: [],
  pauses: [],
  ...r,
});

describe("nonLeaderWrites", () => {
  it("passes every write a replica makes while it leads", () => {
    const one = replica("replica-1", { acquired: [at(1)], writes: [at(1), at(2), at(30)] });
    const two = replica("replica-2");
    expect(leadingIntervals(one, [one, two])).toEqual([[at(1), Infinity]]);
    expect(nonLeaderWrites([one, two])).toEqual([]);
  });

  it("flags a follower that never led", () => {
    const one = replica("replica-1", { acquired: [at(1)], writes: [at(2)] });
    const two = replica("replica-2", { writes: [at(5)] });
    expect(nonLeaderWrites([one, two])).toEqual([
      `replica-2 at ${new Date(at(5)).toISOString()}: it never held the lease`,
    ]);
  });

  it("flags a write before the writer's first lease", () => {
    const one = replica("replica-1", { acquired: [at(1)], writes: [at(2)] });
    // replica-2 takes over at 20 s (replica-1 gone); its write at 10 s was made as a follower.
    const two = replica("replica-2", { acquired: [at(20)], writes: [at(10), at(21)] });
    expect(nonLeaderWrites([one, two])).toEqual([
      `replica-2 at ${new Date(at(10)).toISOString()}: before it first acquired the lease`,
    ]);
  });

  it("flags a deposed leader's writes after the takeover", () => {
    const one = replica("replica-1", { acquired: [at(1)], writes: [at(2), at(9), at(12)] });
    const two = replica("replica-2", { acquired: [at(10)], writes: [at(11)] });
    expect(leadingIntervals(one, [one, two])).toEqual([[at(1), at(10)]]);
    expect(nonLeaderWrites([one, two])).toEqual([
      `replica-1 at ${new Date(at(12)).toISOString()}: after another replica acquired the lease`,
    ]);
  });

  it("leads again from a later acquisition of its own", () => {
    const one = replica("replica-1", { acquired: [at(1), at(30)], writes: [at(31)] });
    const two = replica("replica-2", { acquired: [at(10)], writes: [at(11)] });
    expect(leadingIntervals(two, [one, two])).toEqual([[at(10), at(30)]]);
    expect(nonLeaderWrites([one, two])).toEqual([]);
  });

  it("excuses one in-flight write per resume of a leader, logged within a second of it", () => {
    // replica-1 leads, is stopped at 5 s; replica-2 takes over at 20 s; replica-1 resumes at 25 s.
    const one = replica("replica-1", {
      acquired: [at(1)],
      writes: [at(25.2), at(25.4), at(27)],
      pauses: [{ stoppedAt: at(5), resumedAt: at(25) }],
    });
    const two = replica("replica-2", { acquired: [at(20)] });
    expect(nonLeaderWrites([one, two])).toEqual([
      `replica-1 at ${new Date(at(25.4)).toISOString()}: after another replica acquired the lease`,
      `replica-1 at ${new Date(at(27)).toISOString()}: after another replica acquired the lease`,
    ]);
  });

  it("excuses nothing for a follower's resume: it had no write in flight", () => {
    const one = replica("replica-1", { acquired: [at(1)] });
    const two = replica("replica-2", {
      writes: [at(10.5)],
      pauses: [{ stoppedAt: at(5), resumedAt: at(10) }],
    });
    expect(nonLeaderWrites([one, two])).toEqual([
      `replica-2 at ${new Date(at(10.5)).toISOString()}: it never held the lease`,
    ]);
  });
});
