import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, vi } from "vitest";
import { watchManifests } from "./watch.js";

let dir: string | undefined;
const stops: AbortController[] = [];
afterEach(() => {
  for (const s of stops.splice(0)) s.abort();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const GV = "// +groupName=t.kbts.test\nexport const GroupVersion = {} as const;\n";
const kind = (name: string, doc: string) => `import type { ObjectMeta } from "@kbts/runtime";

// +kubebuilder:object:root=true
export interface ${name} {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec?: {
    // ${doc}
    a?: string;
  };
}
`;
const CRD = "config/crd/bases/t.kbts.test_things.yaml";
const WAIT = { timeout: 30_000, interval: 50 };

function project(): string {
  dir = mkdtempSync(join(tmpdir(), "kbts-watch-"));
  for (const [p, content] of Object.entries({
    "api/v1/groupversion_info.ts": GV,
    "api/v1/thing_types.ts": kind("Thing", "a is the first field."),
  })) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), content);
  }
  return dir;
}

function startWatch(root: string) {
  const stop = new AbortController();
  stops.push(stop);
  const out: string[] = [];
  const err: string[] = [];
  const done = watchManifests({}, root, {
    signal: stop.signal,
    out: { log: (l) => out.push(l), error: (l) => err.push(l) },
  });
  return { stop, out, err, done };
}

const crdOf = (root: string, file = CRD) => readFileSync(join(root, file), "utf8");

describe("kbts manifests --watch", { timeout: 90_000 }, () => {
  it("regenerates on save, says what changed, and survives a syntax error in the file being edited", async () => {
    const root = project();
    const w = startWatch(root);
    await vi.waitFor(() => expect(w.out).toContain("kbts: watching for changes (Ctrl-C to stop)"), WAIT);
    expect(crdOf(root)).toContain("a is the first field.");

    writeFileSync(join(root, "api/v1/thing_types.ts"), kind("Thing", "a was edited."));
    await vi.waitFor(() => expect(crdOf(root)).toContain("a was edited."), WAIT);
    expect(w.out).toContain("changed: api/v1/thing_types.ts");
    expect(w.out).toContain(`wrote ${CRD}`);

    const good = crdOf(root);
    writeFileSync(
      join(root, "api/v1/thing_types.ts"),
      `${kind("Thing", "half typed")}\nexport interface Broken {\n`,
    );
    await vi.waitFor(
      () => expect(w.err.join("\n")).toMatch(/api\/v1\/thing_types\.ts:\d+:\d+: TS1005/),
      WAIT,
    );
    expect(w.err).toContain("kbts: still watching; fix the error and save again");
    expect(crdOf(root)).toBe(good);

    writeFileSync(join(root, "api/v1/thing_types.ts"), kind("Thing", "a is fixed."));
    await vi.waitFor(() => expect(crdOf(root)).toContain("a is fixed."), WAIT);

    // A new file in a scanned directory is seen too.
    writeFileSync(join(root, "api/v1/other_types.ts"), kind("Other", "another kind."));
    await vi.waitFor(
      () => expect(crdOf(root, "config/crd/bases/t.kbts.test_others.yaml")).toContain("another kind."),
      WAIT,
    );

    w.stop.abort();
    await w.done;
  });

  it("stops on SIGINT with exit code 0", async () => {
    const root = project();
    const command = fileURLToPath(new URL("./command.ts", import.meta.url));
    const script = join(root, "watch.mts");
    writeFileSync(
      script,
      `import { runManifests } from ${JSON.stringify(command)};\nawait runManifests({ watch: true }, ${JSON.stringify(root)});\n`,
    );
    const repo = fileURLToPath(new URL("../../", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script], { cwd: repo });
    let stdout = "";
    child.stdout.on("data", (d) => {
      stdout += String(d);
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      await vi.waitFor(() => expect(stdout).toContain("kbts: watching for changes"), WAIT);
      child.kill("SIGINT");
      expect(await exited).toBe(0);
      expect(stdout).toContain("kbts: stopped watching");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
