import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findFloatingPromises } from "./floating.js";

const dir = mkdtempSync(join(tmpdir(), "kbts-lint-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("findFloatingPromises", () => {
  it("reports unawaited calls, and not awaited, returned, stored, handled or voided ones", () => {
    mkdirSync(join(dir, "src"));
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, target: "ES2022", module: "NodeNext" },
        include: ["src"],
      }),
    );
    writeFileSync(
      join(dir, "src/r.ts"),
      `interface Sub { update(o: object): Promise<object> }
export class R {
  constructor(private readonly client: { status(): Sub; get(): Promise<object> }) {}
  pending?: Promise<object>;
  async reconcile(o: object): Promise<unknown> {
    this.client.status().update(o);
    await this.client.status().update(o);
    this.pending = this.client.get();
    this.client.get().catch(() => undefined);
    this.client.get().then(() => 1, () => 2);
    this.client.get().then(() => 1);
    void this.client.get();
    return this.client.get();
  }
}
`,
    );
    const found = findFloatingPromises(dir);
    expect(found.map((f) => f.where)).toEqual(["src/r.ts:6:5", "src/r.ts:11:5"]);
    expect(found[0]?.text).toBe("this.client.status().update(o)");
    // Type-checking a program (TypeScript's lib included) takes seconds on a loaded machine.
  }, 60_000);
});
