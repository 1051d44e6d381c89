/**
 * `make tools`: builds the controller-gen oracle into the user cache when it is missing, and downloads
 * the Go modules of testdata/markers that it loads, so the tests only ever use what is cached. Exits
 * non-zero with one line saying why when either cannot be had.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CONTROLLER_GEN_VERSION, controllerGenDir, installControllerGen } from "./index.js";

const MARKERS_DIR = fileURLToPath(new URL("../markers/", import.meta.url));

async function step(label: string, work: () => Promise<string | undefined>): Promise<void> {
  process.stdout.write(`${label} `);
  const timer = setInterval(() => process.stdout.write("."), 5000);
  const started = Date.now();
  const failure = await work();
  clearInterval(timer);
  if (failure === undefined) {
    process.stdout.write(`ok (${((Date.now() - started) / 1000).toFixed(1)}s)\n`);
    return;
  }
  process.stdout.write("failed\n");
  process.stderr.write(`error: ${failure}\n`);
  process.exit(1);
}

await step(`controller-gen ${CONTROLLER_GEN_VERSION} (${controllerGenDir()})`, async () => {
  const cg = await installControllerGen();
  return cg.ok ? undefined : cg.reason;
});
await step("Go modules of testdata/markers (go mod download)", async () => {
  try {
    await promisify(execFile)("go", ["mod", "download"], { cwd: MARKERS_DIR, maxBuffer: 16 * 1024 * 1024 });
    return undefined;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    return `go mod download in ${MARKERS_DIR} failed: ${(e.stderr || e.message).trim()}`;
  }
});
