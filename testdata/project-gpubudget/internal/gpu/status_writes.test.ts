/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import type { KubernetesObject } from "@kbts/runtime";
import { describe, expect, it } from "vitest";
import { BudgetStatusWrites } from "./status_writes.js";

const at = (resourceVersion: string): KubernetesObject => ({
  metadata: { name: "b", namespace: "ns", resourceVersion },
});

/** A write that records when it starts and ends, and finishes when `finish` is called. */
function held(log: string[], name: string) {
  let finish = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    write: async () => {
      log.push(`${name} starts`);
      await done;
      log.push(`${name} ends`);
      return name;
    },
    finish: () => finish(),
  };
}

describe("BudgetStatusWrites", () => {
  it("runs one budget's writes one at a time, in order, and another budget's beside them", async () => {
    const writes = new BudgetStatusWrites();
    const log: string[] = [];
    const [a1, a2, b1] = [held(log, "a1"), held(log, "a2"), held(log, "b1")];
    const results = [
      writes.exclusive("ns/a", a1.write),
      writes.exclusive("ns/a", a2.write),
      writes.exclusive("ns/b", b1.write),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    expect(log).toEqual(["a1 starts", "b1 starts"]);
    a2.finish(); // a2 cannot end before it has started, after a1
    b1.finish();
    a1.finish();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "b1"]);
    expect(log).toEqual(["a1 starts", "b1 starts", "b1 ends", "a1 ends", "a2 starts", "a2 ends"]);
  });

  it("gives the turn on when a write fails", async () => {
    const writes = new BudgetStatusWrites();
    await expect(writes.exclusive("ns/a", async () => Promise.reject(new Error("conflict")))).rejects.toThrow(
      "conflict",
    );
    expect(await writes.exclusive("ns/a", async () => "next")).toBe("next");
  });

  it("starts from the newer of the cache's copy and the one this replica wrote or read", () => {
    const writes = new BudgetStatusWrites();
    expect(writes.newest("ns/b", at("7"))).toEqual(at("7"));
    writes.record("ns/b", at("9"));
    expect(writes.newest("ns/b", at("8"))).toEqual(at("9"));
    expect(writes.newest("ns/b", at("10"))).toEqual(at("10"));
    writes.forget("ns/b");
    expect(writes.newest("ns/b", at("8"))).toEqual(at("8"));
  });
});
