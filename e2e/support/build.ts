/** Building this checkout from an e2e file, safely when several e2e files run at once. */
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import lockfile from "proper-lockfile";
import { REPO } from "./paths.js";

/**
 * `npx tsc -b` and the CLI's bundle in the checkout (as `make build`; tsc is a no-op when it already ran), one file at a time: two
 * builds writing dist/ at once could leave a half-written file for the other file's kbts to load.
 * The lock lives in the temp dir (never in the tree, which fresh-clone.test.ts copies), one per checkout.
 */
export async function buildCheckout(): Promise<void> {
  const release = await lockfile.lock(REPO, {
    lockfilePath: join(
      tmpdir(),
      `kbts-e2e-build-${createHash("sha256").update(REPO).digest("hex").slice(0, 12)}.lock`,
    ),
    retries: { retries: 600, minTimeout: 200, maxTimeout: 1000 },
  });
  try {
    await execa("npx", ["tsc", "-b"], { cwd: REPO });
    await execa(process.execPath, ["dist/packaging/cli-bundle.js"], { cwd: REPO });
  } finally {
    await release();
  }
}
