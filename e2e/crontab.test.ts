/**
 * testdata/project-crontab, the CronTab tutorial in TypeScript, passes its own `make test` (fake-client
 * unit tests and a control-plane test), and its `make lint` fails on a forgotten await.
 * Its dependencies are linked to this checkout (as `kbts init --runtime link` writes them) and
 * installed with an npm cache of its own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installGoldenProject } from "./support/golden-project.js";
import { runMake } from "./support/make.js";

const work = mkdtempSync(join(tmpdir(), "kbts-e2e-crontab-"));
const project = join(work, "crontab");
const make = (target: string) => runMake(project, target);

beforeAll(async () => {
  const install = await installGoldenProject("project-crontab", project);
  expect(install.exitCode, install.all).toBe(0);
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe.sequential("testdata/project-crontab", () => {
  it("passes its own make test: fake-client unit tests and the control-plane test", async () => {
    const test = await make("test");
    expect(test.exitCode, test.all).toBe(0);
    expect(test.all).toMatch(/crontab_reconciler\.test\.ts \(4 tests\)/);
    expect(test.all).toMatch(/crontab_controller\.test\.ts \(3 tests\)/);
    expect(test.all).toMatch(/Tests\s+7 passed/);
  });

  it("make lint passes, and fails on an unawaited client call", async () => {
    const lint = await make("lint");
    expect(lint.exitCode, lint.all).toBe(0);
    const file = join(project, "internal/controller/crontab_controller.ts");
    const source = readFileSync(file, "utf8");
    const awaited = "await this.client.status().update(CronTabKind, ct);";
    expect(source).toContain(awaited);
    writeFileSync(file, source.replace(awaited, "this.client.status().update(CronTabKind, ct);"));
    const broken = await make("lint");
    expect(broken.exitCode).not.toBe(0);
    expect(broken.all).toMatch(
      /internal\/controller\/crontab_controller\.ts:\d+:\d+: floating promise: this\.client\.status\(\)\.update\(CronTabKind, ct\)/,
    );
  });
});
