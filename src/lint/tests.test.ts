import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lintTests, testFiles } from "./tests.js";

const root = mkdtempSync(join(tmpdir(), "kbts-lint-tests-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** Lints one fixture test file (plus helper modules beside it); returns "line: rule" per finding. */
function lint(source: string, helpers: Record<string, string> = {}): string[] {
  const dir = join(root, `case-${++n}`);
  for (const [path, text] of Object.entries({ ...helpers, "a.test.ts": source })) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return lintTests(dir).map((f) => `${f.where.replace(/^a\.test\.ts:(\d+):\d+$/, "$1")}: ${f.rule}`);
}

describe("lintTests", () => {
  it("finds every *.test.ts, not in node_modules, dist or dot-directories", () => {
    const dir = join(root, "walk");
    for (const p of [
      "a.test.ts",
      "sub/b.int.test.ts",
      "node_modules/x/c.test.ts",
      "dist/d.test.ts",
      ".git/e.test.ts",
      "f.ts",
    ]) {
      mkdirSync(dirname(join(dir, p)), { recursive: true });
      writeFileSync(join(dir, p), "");
    }
    expect(testFiles(dir).map((f) => f.slice(dir.length + 1))).toEqual(["a.test.ts", "sub/b.int.test.ts"]);
  });

  it("no-assertion: a test that asserts nothing, directly or through the helpers it calls", () => {
    const source = `import { expect, it } from "vitest";
import { checkAll, quiet } from "./support.js";
const local = (x: number) => expect(x).toBe(1);
it("nothing", async () => {
  await Promise.resolve(1);
});
it("expect", () => expect(1).toBe(1));
it("a helper named expect…", async () => expectStatus());
it("a local helper that asserts", () => local(1));
it("an imported helper that asserts", () => checkAll());
it("an imported helper that does not", () => quiet());
it("a throw", () => {
  if (Math.random() > 2) throw new Error("x");
});
it.each([1, 2])("each %s", (x) => {
  void x;
});
it.skip("a skip placeholder never runs", () => {});
// lint-tests: allow no-assertion — it only has to load
it("silenced", () => {});
`;
    expect(
      lint(source, {
        "support.ts": `export function checkAll() { if (!ok()) throw new Error("not ok"); }
export function quiet() { return 1; }
function ok() { return true; }
`,
      }),
    ).toEqual(["4: no-assertion", "11: no-assertion", "15: no-assertion"]);
  });

  it("conditional-assertion: an assertion that runs only on an error or an event", () => {
    const source = `import { expect, it } from "vitest";
it("catch clause", () => {
  expect(1).toBe(1);
  try {
    parse("x");
  } catch (err) {
    expect(err).toBeDefined();
  }
});
it("try ending in a failure", () => {
  try {
    parse("x");
    expect.unreachable();
  } catch (err) {
    expect(err).toBeDefined();
  }
});
it("rejection handler and listener", async () => {
  await run().catch((err: Error) => expect(err.message).toMatch(/x/));
  emitter.on("exit", (code: number) => expect(code).toBe(0));
});
it("counted", async () => {
  expect.assertions(1);
  await run().catch((err: Error) => expect(err.message).toMatch(/x/));
});
it("silenced", async () => {
  // lint-tests: allow conditional-assertion — the dry run may pass; a refusal must be this one
  await run().catch((err: Error) => expect(err.message).toMatch(/x/));
  expect(1).toBe(1);
});
`;
    expect(lint(source)).toEqual([
      "7: conditional-assertion",
      "19: conditional-assertion",
      "20: conditional-assertion",
    ]);
  });

  it("unread-result: reject: false, or a helper returning it, whose result is dropped", () => {
    const source = `import { execa } from "execa";
import { expect, it } from "vitest";
const kubectl = (args: string[]) => execa("kubectl", args, { reject: false });
it("builds", async () => {
  await execa("tsc", ["-b"], { reject: false });
  await kubectl(["create", "namespace", "a"]);
  const unused = await kubectl(["get", "pods"]);
  const r = await kubectl(["get", "nodes"]);
  expect(r.exitCode).toBe(0);
  expect((await execa("x", [], { reject: false })).exitCode).toBe(0);
  // lint-tests: allow unread-result — it may exist already
  await kubectl(["create", "namespace", "b"]);
});
`;
    expect(lint(source)).toEqual(["5: unread-result", "6: unread-result", "7: unread-result"]);
  });

  it("swallowed-error: .catch(() => {}) or an empty catch outside teardown, unless explained or still read", () => {
    const source = `import { afterAll, afterEach, expect, it } from "vitest";
let done: Promise<void>;
afterEach(async () => {
  await stop().catch(() => {});
  try { cleanup(); } catch {}
});
afterAll(() => stop().catch(() => undefined));
it("under test", async () => {
  await start().catch(() => {});
  start().then(() => 1, () => undefined);
  try {
    work();
  } catch {}
  try {
    work();
  } catch {
    // gone meanwhile
  }
  try {
    expect(await work()).toBe(1);
  } finally {
    await stop().catch(() => {});
  }
  done = start();
  done.catch(() => {});
  await done;
  const maybe = await start().catch(() => undefined);
  expect(maybe).toBeUndefined();
  start().catch(() => {}); // lint-tests: allow swallowed-error — a background start; its waits fail otherwise
});
`;
    expect(lint(source)).toEqual(["9: swallowed-error", "10: swallowed-error", "13: swallowed-error"]);
  });

  it("allow comments name a known rule and a reason, and must silence something", () => {
    const source = `import { expect, it } from "vitest";
// lint-tests: allow no-assertion
it("no reason", () => {});
// lint-tests: allow nothing-at-all — why
it("unknown rule", () => expect(1).toBe(1));
// lint-tests: allow no-assertion — stale
it("asserts", () => expect(1).toBe(1));
`;
    expect(lint(source)).toEqual(["2: allow-comment", "4: allow-comment", "6: allow-comment"]);
  });
});
