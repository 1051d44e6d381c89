/**
 * The CEL cost gate agrees with the real kube-apiserver on testdata/cel-cost/cases.ts: every case kbts
 * refuses for cost is refused by the server for cost, every case kbts accepts is accepted, and where the
 * server prints its estimate to six decimals (less than 1.5 times a budget) kbts prints the same.
 */
import { CustomResourceDefinition, createClient } from "@kbts/runtime";
import { type Environment, startEnvironment } from "@kbts/runtime/envtest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  celRuleCosts,
  PER_RULE_COST_LIMIT,
  PER_SCHEMA_COST_LIMIT,
  schemaCost,
} from "../../src/schema/cel-cost.js";
import { exceedsCelBudget, overBy } from "../../src/schema/cel-cost-gate.js";
import { CASES, type CelCostCase } from "./cases.js";

let env: Environment;
beforeAll(async () => {
  env = await startEnvironment();
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const crdOf = (c: CelCostCase) => ({
  apiVersion: "apiextensions.k8s.io/v1",
  kind: "CustomResourceDefinition",
  metadata: { name: "things.cost.kbts.test" },
  spec: {
    group: "cost.kbts.test",
    scope: "Namespaced",
    names: { plural: "things", singular: "thing", kind: "Thing", listKind: "ThingList" },
    versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema: c.schema } }],
  },
});

describe("the CEL cost gate agrees with kube-apiserver", () => {
  it("on every case near the budgets, both ways", { timeout: 120_000 }, async () => {
    const client = createClient(env.kubeConfig);
    const disagreements: string[] = [];
    for (const c of CASES) {
      const server = await client.create(CustomResourceDefinition, crdOf(c) as never, { dryRun: true }).then(
        () => undefined,
        (e: Error) => e.message,
      );
      const serverRefused = server !== undefined && /cost/.test(server);
      if (server !== undefined && !serverRefused)
        disagreements.push(`${c.name}: refused for another reason: ${server}`);
      const kbts = exceedsCelBudget(c.schema);
      if (kbts !== serverRefused || kbts !== c.refused)
        disagreements.push(
          `${c.name}: kbts ${kbts}, server ${serverRefused}, expected ${c.refused}: ${server ?? ""}`,
        );
      // Where the server prints its estimate precisely, it must be kbts' estimate.
      const costs = celRuleCosts(c.schema);
      const perRule =
        /estimated (?:rule|messageExpression) cost exceeds budget by factor of (\d+\.\d{6})x/.exec(
          server ?? "",
        )?.[1];
      if (perRule) {
        const mine = costs.flatMap((r) =>
          [r.total, r.messageCost ?? 0].map((x) => overBy(x, PER_RULE_COST_LIMIT)),
        );
        if (!mine.includes(`${perRule}x`))
          disagreements.push(`${c.name}: server ${perRule}x, kbts ${mine.join(", ")}`);
      }
      const total = /total for entire OpenAPIv3 schema exceeds budget by factor of (\d+\.\d{6})x/.exec(
        server ?? "",
      )?.[1];
      if (total) {
        const mine = overBy(schemaCost(costs), PER_SCHEMA_COST_LIMIT);
        if (mine !== `${total}x`) disagreements.push(`${c.name}: server total ${total}x, kbts ${mine}`);
      }
    }
    expect(disagreements, disagreements.join("\n")).toEqual([]);
    expect(CASES.filter((c) => c.refused).length).toBeGreaterThanOrEqual(5);
    expect(CASES.filter((c) => !c.refused).length).toBeGreaterThanOrEqual(5);
  });
});
