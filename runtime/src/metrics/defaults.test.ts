import { collectDefaultMetrics, Registry as PromClientRegistry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerProcessMetrics } from "./defaults.js";
import { Counter, Registry } from "./prom.js";

/** name, type and help of every series a registry exposes. */
async function series(registry: Registry) {
  return (await registry.getMetricsAsJSON()).map(({ name, type, help }) => ({
    name,
    type: String(type),
    help,
  }));
}

describe("registerProcessMetrics", () => {
  it("exposes exactly prom-client's default series (process_*, nodejs_*)", async () => {
    const ours = new Registry();
    registerProcessMetrics(ours);
    const theirs = new PromClientRegistry();
    collectDefaultMetrics({ register: theirs });
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect((await series(ours)).sort(byName)).toEqual((await series(theirs)).sort(byName));
  });

  it("counts this process's CPU time", async () => {
    const registry = new Registry();
    registerProcessMetrics(registry);
    registerProcessMetrics(registry); // once per registry: a second call registers nothing twice
    const until = Date.now() + 50;
    while (Date.now() < until); // burn some CPU
    const text = await registry.metrics();
    const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value("process_cpu_user_seconds_total")).toBeGreaterThan(0.01);
    expect(value("process_cpu_seconds_total")).toBeCloseTo(
      value("process_cpu_user_seconds_total") + value("process_cpu_system_seconds_total"),
      6,
    );
  });

  it("uses the same classes as prom-client's index, so an operator's own prom-client metrics fit", async () => {
    const { Counter: IndexCounter } = await import("prom-client");
    expect(Counter).toBe(IndexCounter);
  });
});
