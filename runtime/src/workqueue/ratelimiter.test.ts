import { describe, expect, it } from "vitest";
import {
  bucketRateLimiter,
  defaultControllerRateLimiter,
  exponentialFailureRateLimiter,
  maxOfRateLimiter,
} from "./ratelimiter.js";

describe("exponentialFailureRateLimiter", () => {
  it("doubles from 5 ms per failure and caps at 1000 s", () => {
    const rl = exponentialFailureRateLimiter(5, 1_000_000);
    const delays = Array.from({ length: 20 }, () => rl.when("ns/a"));
    expect(delays.slice(0, 8)).toEqual([5, 10, 20, 40, 80, 160, 320, 640]);
    // 5·2^17 = 655 360 ms is the last delay under the cap; every later one is 1000 s.
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
    expect(delays[19]).toBe(1_000_000);
    expect(rl.numRequeues("ns/a")).toBe(20);
  });

  it("keeps a failure count per item and forget resets it", () => {
    const rl = exponentialFailureRateLimiter();
    rl.when("a");
    rl.when("a");
    expect(rl.when("b")).toBe(5);
    expect(rl.when("a")).toBe(20);
    rl.forget("a");
    expect(rl.numRequeues("a")).toBe(0);
    expect(rl.when("a")).toBe(5);
  });

  it("never overflows to Infinity", () => {
    const rl = exponentialFailureRateLimiter(5, 1_000_000);
    for (let i = 0; i < 2000; i++) rl.when("x");
    expect(rl.when("x")).toBe(1_000_000);
  });

  it("rejects nonsense bounds", () => {
    expect(() => exponentialFailureRateLimiter(0, 10)).toThrow(/baseDelayMs/);
    expect(() => exponentialFailureRateLimiter(10, 5)).toThrow(/baseDelayMs <= maxDelayMs/);
  });
});

describe("bucketRateLimiter", () => {
  it("lets a burst through, then spaces items by 1/qps", () => {
    let now = 0;
    const rl = bucketRateLimiter(10, 100, () => now);
    for (let i = 0; i < 100; i++) expect(rl.when(`k${i}`)).toBe(0);
    expect(rl.when("k100")).toBeCloseTo(100);
    expect(rl.when("k101")).toBeCloseTo(200);
    now += 1000; // 10 tokens refilled, 2 of them owed
    expect(rl.when("k102")).toBeCloseTo(0);
  });
});

describe("maxOfRateLimiter / defaultControllerRateLimiter", () => {
  it("takes the longest delay", () => {
    const rl = maxOfRateLimiter(
      exponentialFailureRateLimiter(5, 1000),
      exponentialFailureRateLimiter(7, 1000),
    );
    expect(rl.when("a")).toBe(7);
    expect(rl.when("a")).toBe(14);
    rl.forget("a");
    expect(rl.numRequeues("a")).toBe(0);
  });

  it("is exponential per item for the first failures (the bucket has burst 100)", () => {
    const rl = defaultControllerRateLimiter();
    expect([rl.when("a"), rl.when("a"), rl.when("a")]).toEqual([5, 10, 20]);
  });
});
