/**
 * Rewrites expected/ of every case that has a Go twin with controller-gen's own output, so the
 * corpus records what controller-gen does, not what kbts does.
 *   npx tsx testdata/markers/regen.ts            all cases
 *   npx tsx testdata/markers/regen.ts 01 27      cases whose name starts with 01 or 27
 * Cases with WHY.md keep their hand-checked expected/ (kbts differs from controller-gen there).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { installControllerGen, runControllerGen } from "../controller-gen/index.js";
import { type Case, listCases, MARKERS_DIR } from "./cases.js";

async function regen(bin: string, c: Case): Promise<string | undefined> {
  const result = await runControllerGen(bin, {
    moduleDir: MARKERS_DIR,
    packages: `./${c.name}/...`,
    ...c.options,
  });
  if (!result.ok) return result.error;
  // The warnings kbts must give with this output (warning.txt) are kbts', not controller-gen's: kept.
  rmSync(join(c.dir, "expected/config"), { recursive: true, force: true });
  mkdirSync(join(c.dir, "expected"), { recursive: true });
  for (const [path, content] of result.files) {
    const target = join(c.dir, "expected", path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  return undefined;
}

async function main(): Promise<void> {
  const filters = process.argv.slice(2);
  const cg = await installControllerGen();
  if (!cg.ok) {
    console.error(`regen: ${cg.reason}`);
    process.exit(1);
  }
  const todo = listCases().filter(
    (c) => c.hasGo && !c.differs && (filters.length === 0 || filters.some((f) => c.name.startsWith(f))),
  );
  let failed = 0;
  // Two at a time: the machine is shared and controller-gen type-checks k8s.io/api per run.
  const queue = [...todo];
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const err = await regen(cg.bin, c);
      if (err) {
        failed++;
        console.error(`FAIL ${c.name}\n${err}\n`);
      } else console.log(`ok   ${c.name}`);
    }
  };
  await Promise.all([worker(), worker()]);
  if (failed > 0) process.exit(1);
}

await main();
