/**
 * `make controller-gen` (part of `make tools`): builds the controller-gen oracle into the user cache
 * when it is missing, and downloads the Go modules of testdata/markers that it loads, so the tests
 * only ever use what is cached. Exits non-zero with one line saying why when either cannot be had.
 */
import { fileURLToPath } from "node:url";
import { installGoToolOrExit } from "../../e2e/tools/go-tool.js";
import { runGo } from "../../src/envtest/go.js";
import { Progress } from "../../src/envtest/progress.js";
import { CONTROLLER_GEN } from "./index.js";

const MARKERS_DIR = fileURLToPath(new URL("../markers/", import.meta.url));

// Exits unless controller-gen is built and go is on PATH (controller-gen runs it).
await installGoToolOrExit(CONTROLLER_GEN);
try {
  await new Progress(process.stderr, "controller-gen").during(
    `downloading the Go modules of ${MARKERS_DIR} (go mod download)`,
    runGo("go", ["mod", "download"], { cwd: MARKERS_DIR }),
  );
} catch (err) {
  process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)} (in ${MARKERS_DIR})\n`);
  process.exit(1);
}
