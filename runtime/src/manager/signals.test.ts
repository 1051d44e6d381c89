import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";

describe("setupSignalHandler", () => {
  it("aborts on the first SIGTERM and exits 1 on the second", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kbts-signals-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const script = join(dir, "child.mts");
    const mod = pathToFileURL(join(import.meta.dirname, "signals.ts")).href;
    writeFileSync(
      script,
      `import { setupSignalHandler } from ${JSON.stringify(mod)};
const signal = setupSignalHandler();
if (setupSignalHandler() !== signal) throw new Error("not the same signal");
signal.addEventListener("abort", () => console.log("aborted"));
setInterval(() => {}, 1000); // a shutdown that never finishes
console.log("ready");
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], {
      cwd: join(import.meta.dirname, "..", "..", ".."),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const until = async (text: string) => {
      const end = Date.now() + 20_000;
      while (!out.includes(text)) {
        if (Date.now() > end) throw new Error(`no "${text}" from the child; output:\n${out}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    try {
      await until("ready");
      child.kill("SIGTERM");
      await until("aborted");
      child.kill("SIGTERM");
      expect(await exit).toBe(1);
      expect(out).toContain("received SIGTERM again: exiting immediately");
    } finally {
      child.kill("SIGKILL");
    }
  }, 30_000);
});
