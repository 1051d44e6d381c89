import { expect, it } from "vitest";
import { processesMentioning } from "../../runtime/src/internal/proc.js";
import { eventually } from "./eventually.js";
import { run } from "./run.js";

it("ends a command's whole process group at its timeout and names what was still running", async () => {
  // As in a make recipe: killing the shell alone would leave `sleep` holding the output pipe.
  const started = Date.now();
  const failure = await run("sh", ["-c", "sleep 37 | cat; echo never"], { timeout: 1_000 }).then(
    () => new Error("run() resolved"),
    (e: Error) => e,
  );
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(failure.message).toMatch(/was still running after 1000 ms/);
  expect(failure.message).toMatch(/running \d+ s: sleep 37/);
  // Killed, not waited for: the line after the pipeline never ran.
  expect(failure.message.split("its output:")[1]).not.toContain("never");
  await eventually(async () => expect(processesMentioning("sleep\u000037")).toEqual([]), 5_000);
});

it("returns the output of a command that ends in time", async () => {
  const r = await run("sh", ["-c", "echo done"], { timeout: 10_000 });
  expect(r.stdout).toBe("done");
});
