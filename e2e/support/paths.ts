/** Where things are in this checkout, for the e2e tests, the demo and the benchmarks. */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (ends with a slash). */
export const REPO = fileURLToPath(new URL("../..", import.meta.url));
/** The built CLI (`make build`), run as `node KBTS …`. */
export const KBTS = join(REPO, "bin", "kbts.js");
