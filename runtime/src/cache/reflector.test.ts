import { describe, expect, it } from "vitest";
import { backoffDelay, defaultReflectorTuning } from "./reflector.js";

describe("backoffDelay", () => {
  const mid = () => 0.5; // no jitter: exactly the base delay

  it("doubles from 800 ms and caps at 30 s, like client-go's reflector backoff", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelay(n, defaultReflectorTuning, mid));
    expect(delays).toEqual([800, 1600, 3200, 6400, 12800, 25600, 30000, 30000]);
    expect(backoffDelay(1000, defaultReflectorTuning, mid)).toBe(30000);
  });

  it("spreads each delay by ±25 %", () => {
    expect(backoffDelay(1, defaultReflectorTuning, () => 0)).toBe(600);
    expect(backoffDelay(1, defaultReflectorTuning, () => 0.999999)).toBeCloseTo(1000, 0);
    expect(backoffDelay(10, defaultReflectorTuning, () => 0)).toBe(22500);
  });
});
