/**
 * The globalSetup of the test projects that start control planes: kubectl's cache (discovery and HTTP
 * responses, ~/.kube/cache by default) goes to a directory of this run's, removed when the run ends.
 * Every control plane listens on a new port, and kubectl keeps a cache folder per host and port that
 * nothing ever reads again: a make test added about 60 folders and 150 MB to the user's ~/.kube/cache.
 * Set before any worker starts, so the tests' kubectl and everything they spawn (make deploy, the
 * READMEs' steps) inherit it.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), "kbts-kubectl-cache-"));
  process.env.KUBECACHEDIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
