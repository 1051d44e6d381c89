import { describe, expect, it } from "vitest";
import { type DeliveredEvent, EventJournal } from "./journal.js";

const ev = (type: DeliveredEvent["type"], uid: string, rv: string, relisted = false): DeliveredEvent => ({
  type,
  uid,
  resourceVersion: rv,
  relisted,
});

describe("EventJournal", () => {
  it("counts nothing when a watch delivered every version written, deletions included", () => {
    const j = new EventJournal();
    j.wrote("a", "10");
    j.wrote("a", "12");
    j.wrote("b", "11");
    j.saw(ev("add", "a", "10"));
    j.saw(ev("add", "b", "11"));
    j.saw(ev("update", "a", "12"));
    j.saw(ev("delete", "b", "13"));
    const account = j.account(new Map([["a", "12"]]));
    expect(account).toEqual({
      missed: [],
      stale: [],
      duplicated: 0,
      outOfOrder: 0,
      coalesced: 0,
      delivered: 4,
    });
    expect(j.caughtUp(new Map([["a", "12"]]))).toBe(true);
  });

  it("calls a skipped version missed when a watch event follows it, coalesced when a relist does", () => {
    const j = new EventJournal();
    for (const rv of ["10", "11", "12"]) j.wrote("a", rv);
    for (const rv of ["20", "21", "22"]) j.wrote("b", rv);
    j.saw(ev("add", "a", "10"));
    j.saw(ev("update", "a", "12")); // 11 never came, and nothing relisted
    j.saw(ev("add", "b", "20"));
    j.saw(ev("update", "b", "22", true)); // 21 folded into a relist
    const account = j.account(
      new Map([
        ["a", "12"],
        ["b", "22"],
      ]),
    );
    expect(account.missed).toEqual(["a@11 (next: update 12)"]);
    expect(account.coalesced).toBe(1);
  });

  it("calls an object stale whose last delivered state is not the API server's", () => {
    const j = new EventJournal();
    j.wrote("a", "10");
    j.wrote("a", "11");
    j.saw(ev("add", "a", "10"));
    j.saw(ev("add", "gone", "5"));
    const truth = new Map([
      ["a", "11"],
      ["new", "12"],
    ]);
    expect(j.caughtUp(truth)).toBe(false);
    expect(j.account(truth).stale).toEqual([
      "a: has add 10, is 11",
      "new: has nothing, is 12",
      "gone: has add 5, is deleted",
    ]);
  });

  it("counts a version delivered twice, and one delivered after a newer one", () => {
    const j = new EventJournal();
    j.saw(ev("add", "a", "10"));
    j.saw(ev("update", "a", "11"));
    j.saw(ev("update", "a", "11"));
    j.saw(ev("update", "a", "10"));
    const account = j.account(new Map([["a", "10"]]));
    expect(account.duplicated).toBe(2);
    expect(account.outOfOrder).toBe(1);
  });
});
