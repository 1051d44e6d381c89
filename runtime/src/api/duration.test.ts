import { describe, expect, it } from "vitest";
import { hours, milliseconds, minutes, parseDuration, seconds, toMilliseconds } from "./duration.js";

describe("Go durations", () => {
  it("parses time.ParseDuration's syntax as milliseconds", () => {
    expect(parseDuration("1m")).toBe(60_000);
    expect(parseDuration("1m30s")).toBe(90_000);
    expect(parseDuration("2h45m")).toBe(9_900_000);
    expect(parseDuration("1.5h")).toBe(5_400_000);
    expect(parseDuration(".5s")).toBe(500);
    expect(parseDuration("300ms")).toBe(300);
    expect(parseDuration("1500us")).toBe(1.5);
    expect(parseDuration("-1m")).toBe(-60_000);
    expect(parseDuration("0")).toBe(0);
  });
  it("refuses what Go refuses: bare numbers, unknown units, spaces, trailing junk", () => {
    for (const bad of ["", "1", "60", "1 m", "1min", "1d", "m", "1m junk", "+", "--1s", "1e3s"]) {
      expect(parseDuration(bad), bad).toBeUndefined();
    }
  });
  it("helpers read as Go's time constants", () => {
    expect(minutes(1)).toBe(60_000);
    expect(seconds(5)).toBe(5_000);
    expect(hours(2)).toBe(7_200_000);
    expect(milliseconds(250)).toBe(250);
  });
  it("toMilliseconds takes numbers and strings, and says what to write for a bad one", () => {
    expect(toMilliseconds(1500)).toBe(1500);
    expect(toMilliseconds("1m")).toBe(60_000);
    expect(() => toMilliseconds("1 minute", "Result.requeueAfter")).toThrow(
      /Result\.requeueAfter: "1 minute" is not a duration; write milliseconds \(60000\), a Go duration \("1m"/,
    );
  });
});
