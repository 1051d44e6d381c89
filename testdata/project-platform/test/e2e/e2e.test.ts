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

import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// These tests run against the cluster of KUBECONFIG (for example a Kind cluster with the manager image
// loaded: `make docker-build IMG=...` then `kind load docker-image ...`), else against the local control
// plane of `make setup-test-e2e`; they deploy the project with `make deploy` and undeploy it afterwards.
// Run them with `make test-e2e` (CI: make setup-test-e2e test-e2e cleanup-test-e2e).

const run = promisify(execFile);
const namespace = "platform-system";
const kubectl = process.env.KUBECTL ?? "kubectl";

async function sh(command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, { env: process.env, maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}

/** Polls `check` until it passes or the deadline expires (no fixed sleeps). */
async function eventually(check: () => Promise<void>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

describe("Manager", () => {
  beforeAll(async () => {
    await sh("make", ["install"]);
    await sh("make", ["deploy", `IMG=${process.env.IMG ?? "controller:latest"}`]);
  }, 300_000);

  afterAll(async () => {
    await sh("make", ["undeploy", "ignore-not-found=true"]).catch(() => undefined);
    await sh("make", ["uninstall", "ignore-not-found=true"]).catch(() => undefined);
  }, 300_000);

  it("should run successfully", async () => {
    await eventually(async () => {
      const phase = await sh(kubectl, [
        "get",
        "pods",
        "-l",
        "control-plane=controller-manager",
        "-n",
        namespace,
        "-o",
        "jsonpath={.items[*].status.phase}",
      ]);
      expect(phase.split(" ")).toContain("Running");
    });
  });

  it("should become ready (its /readyz probe passes)", async () => {
    await eventually(async () => {
      const ready = await sh(kubectl, [
        "get",
        "deployment",
        "platform-controller-manager",
        "-n",
        namespace,
        "-o",
        "jsonpath={.status.readyReplicas}",
      ]);
      expect(Number(ready)).toBeGreaterThan(0);
    });
  });

  // +kubebuilder:scaffold:e2e-webhooks-checks
});
