import { describe, expect, it } from "vitest";
import {
  type ConfigFigures,
  fitTarget,
  goalLines,
  lastWriters,
  overlaps,
  parseStatusWrite,
  type StatusWrite,
  scaleTable,
  writeWindows,
} from "./figures.js";

const limits = { budgetSeconds: 600, controlPlaneMaxMiB: 8000 };
const progress = {
  done: 10_000,
  requested: 150_000,
  elapsedSeconds: 40,
  recentRate: 250,
  controlPlaneMiB: 400,
  controlPlaneStartMiB: 300,
};

describe("fitTarget", () => {
  it("aims at the requested count when both the time and the memory it needs fit", () => {
    expect(fitTarget(progress, limits, 15)).toEqual({ target: 150_000 });
    expect(fitTarget({ ...progress, recentRate: 1000 }, limits, 15)).toEqual({ target: 150_000 });
  });

  it("cuts to what the latest rate creates within the budget, in whole namespaces, saying why", () => {
    // 10,000 + 200/s * 560 s = 122,000, rounded down to 121,995.
    expect(fitTarget({ ...progress, recentRate: 200 }, limits, 15)).toEqual({
      target: 121_995,
      reason:
        "time: after 10000 pods in 40 s, pods were created at 200/s (the latest chunks), so 121995, not 150000, fit the 600 s create budget (--create-seconds)",
    });
  });

  it("cuts to what the control plane's memory per pod so far keeps within its share", () => {
    // 100 MiB over 10,000 pods: 0.01 MiB each; (1,300 - 300) / 0.01 = 100,000.
    const fit = fitTarget({ ...progress, recentRate: 1000 }, { ...limits, controlPlaneMaxMiB: 1300 }, 15);
    expect(fit.target).toBe(99_990);
    expect(fit.reason).toMatch(
      /^memory: kube-apiserver \+ etcd grew 10\.2 KiB per pod .* so 99990, not 150000, fit/,
    );
  });

  it("never drops below what is already created", () => {
    expect(fitTarget({ ...progress, elapsedSeconds: 700 }, limits, 15).target).toBe(10_000);
  });
});

const event = (over: Record<string, unknown>) =>
  JSON.stringify({
    kind: "Event",
    stage: "ResponseComplete",
    verb: "patch",
    user: { username: "system:serviceaccount:default:shard-1" },
    objectRef: { resource: "gpubudgets", subresource: "status", namespace: "bench-001", name: "budget" },
    responseStatus: { code: 200 },
    requestReceivedTimestamp: "2026-12-04T22:31:38.123456Z",
    stageTimestamp: "2026-12-04T22:31:38.125999Z",
    ...over,
  });

describe("parseStatusWrite", () => {
  it("reads who wrote which budget's status, and when it was received and answered", () => {
    expect(parseStatusWrite(event({}))).toEqual({
      user: "system:serviceaccount:default:shard-1",
      key: "bench-001/budget",
      start: Date.UTC(2026, 11, 4, 22, 31, 38, 123),
      end: Date.UTC(2026, 11, 4, 22, 31, 38, 125),
      code: 200,
    });
  });

  it("skips other stages, verbs and resources, and lines that are not events", () => {
    expect(parseStatusWrite(event({ stage: "ResponseStarted" }))).toBeUndefined();
    expect(parseStatusWrite(event({ verb: "get" }))).toBeUndefined();
    expect(
      parseStatusWrite(event({ objectRef: { resource: "gpubudgets", namespace: "a", name: "b" } })),
    ).toBeUndefined();
    expect(parseStatusWrite("")).toBeUndefined();
  });
});

const write = (user: string, key: string, start: number, end: number, code = 200): StatusWrite => ({
  user,
  key,
  start,
  end,
  code,
});
const replicaOf = (user: string) => (user.startsWith("sa:") ? user.slice(3) : undefined);

describe("writeWindows and overlaps", () => {
  it("finds no overlap when one replica's writes of a budget end before the other's begin", () => {
    const writes = [
      write("sa:shard-1", "a/budget", 100, 105),
      write("sa:shard-1", "a/budget", 200, 204),
      write("sa:shard-0", "a/budget", 16_000, 16_003),
      write("sa:shard-0", "b/budget", 150, 152),
      write("sa:shard-2", "b/budget", 153, 155),
    ];
    expect(overlaps(writeWindows(writes, 0, replicaOf))).toEqual([]);
  });

  it("finds two replicas writing one budget in interleaved spans", () => {
    const writes = [
      write("sa:shard-1", "a/budget", 100, 105),
      write("sa:shard-0", "a/budget", 150, 152),
      write("sa:shard-1", "a/budget", 200, 204),
    ];
    expect(overlaps(writeWindows(writes, 0, replicaOf))).toEqual([
      "a/budget: shard-0 [150, 152] and shard-1 [100, 204]",
    ]);
  });

  it("ignores writes before `since`, refused writes and writers that are no replica", () => {
    const writes = [
      write("sa:shard-1", "a/budget", 100, 105),
      write("sa:shard-0", "a/budget", 150, 152, 409),
      write("admin", "a/budget", 150, 152),
      write("sa:shard-0", "a/budget", 50, 60),
      write("sa:shard-0", "a/budget", 300, 310),
    ];
    expect(writeWindows(writes, 90, replicaOf)).toEqual([
      { replica: "shard-1", key: "a/budget", start: 100, end: 105 },
      { replica: "shard-0", key: "a/budget", start: 300, end: 310 },
    ]);
  });

  it("names each budget's last successful writer", () => {
    const last = lastWriters(
      [
        write("sa:shard-1", "a/budget", 100, 105),
        write("sa:shard-0", "a/budget", 150, 152),
        write("sa:shard-1", "a/budget", 160, 170, 409),
      ],
      replicaOf,
    );
    expect(last).toEqual(new Map([["a/budget", { replica: "shard-0", end: 152 }]]));
  });
});

const config = (
  label: string,
  rss: [number, number][],
  extra: Partial<ConfigFigures> = {},
): ConfigFigures => ({
  label,
  replicas: rss.map(([peak, steady], i) => ({
    name: `r${i}`,
    peakRSSMiB: peak,
    steadyRSSMiB: steady,
    readySeconds: 1.5,
    namespaces: 7,
  })),
  convergedSeconds: 2.345,
  latenciesMs: [10, 20, 30, 40],
  ...extra,
});

describe("scaleTable", () => {
  it("gives one row a replica and a configuration's figures on its first row only", () => {
    const table = scaleTable([
      config("TS, 1 replica", [[300, 250]]),
      config(
        "TS, 3 shards",
        [
          [120, 90],
          [110, 95],
        ],
        { handoverSeconds: 17.25 },
      ),
    ]).split("\n");
    expect(table).toHaveLength(5);
    expect(table[2]).toBe("| TS, 1 replica | r0 | 7 | 300 | 250 | 1.50 | 2.35 | 20.0 / 40.0 | – |");
    expect(table[3]).toBe("| TS, 3 shards | r0 | 7 | 120 | 90 | 1.50 | 2.35 | 20.0 / 40.0 | 17.25 |");
    expect(table[4]).toBe("|  | r1 | 7 | 110 | 95 | 1.50 |  |  |  |");
  });
});

describe("goalLines", () => {
  const unsharded = config("TS", [[300, 250]]);
  it("states each goal met or not beside its figures", () => {
    const lines = goalLines(
      unsharded,
      config("shards", [
        [120, 90],
        [130, 110],
      ]),
      config("Go", [[320, 200]]),
      { budgets: 10, takenOver: 10, wrong: 0, overlapping: [] },
    );
    expect(lines).toEqual([
      "goal: each of 2 shards <= 40% of the unsharded replica's steady RSS (250 MiB): r0 36%, r1 44%: not met",
      "goal: unsharded TS peak RSS <= Go's: 300 vs 320 MiB (0.94x): met",
      "goal: no object lost or double-reconciled across the handover: 10/10 of the killed shard's budgets correct and written by a survivor, 0 budgets wrong anywhere, 0 budgets written by two replicas in overlapping spans (audit log): met",
    ]);
  });

  it("says the handover goal was not measured when the killed shard owned nothing", () => {
    expect(
      goalLines(undefined, undefined, undefined, { budgets: 0, takenOver: 0, wrong: 0, overlapping: [] }),
    ).toEqual([
      "goal: no object lost or double-reconciled across the handover: not measured (the killed shard owned no namespace)",
    ]);
  });

  it("measures no goal of a configuration that failed, and says why", () => {
    const failed = config("TS, 3 shards", [[4100, Number.NaN]], {
      failure: "shard-1 exited (null): FATAL ERROR",
    });
    expect(
      goalLines(unsharded, failed, undefined, { budgets: 1, takenOver: 0, wrong: 1, overlapping: [] }),
    ).toEqual(["goal: not measured for TS, 3 shards: it failed (shard-1 exited (null): FATAL ERROR)"]);
    expect(scaleTable([failed]).split("\n")[2]).toBe(
      "| TS, 3 shards | r0 | 7 | 4100 | n/a | 1.50 | 2.35 | 20.0 / 40.0 | failed |",
    );
  });

  it("fails the handover goal on an overlap and lists it", () => {
    const lines = goalLines(undefined, undefined, undefined, {
      budgets: 2,
      takenOver: 2,
      wrong: 0,
      overlapping: ["a/budget: x [1, 3] and y [2, 4]"],
    });
    expect(lines[0]).toMatch(
      /1 budgets written by two replicas in overlapping spans \(audit log\): not met$/,
    );
    expect(lines[1]).toBe("  overlap: a/budget: x [1, 3] and y [2, 4]");
  });
});
