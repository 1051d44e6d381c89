import type { JSONSchemaProps } from "@kbts/runtime";
import { KbtsError } from "../errors.js";
import {
  celRuleCosts,
  PER_RULE_COST_LIMIT,
  PER_SCHEMA_COST_LIMIT,
  type RuleCost,
  schemaCost,
} from "./cel-cost.js";

/** One version's schema, and where to report a rule found in it. */
export interface CostGateInput {
  crd: string;
  version: string;
  schema: JSONSchemaProps;
  /** file:line:col of the marker that wrote `rule` on `node`, or of the kind when none is known. */
  locate: (node: JSONSchemaProps, rule: string) => string;
}

const n = (x: number) =>
  x >= 2 ** 64 - 1 ? "more than 18 quintillion" : Math.round(x).toLocaleString("en-US");

/** The API server's wording of how far over a budget an estimate is. */
export function overBy(cost: number, limit: number): string {
  const f = cost / limit;
  return f > 100 ? "more than 100x" : f < 1.5 ? `${f.toFixed(6)}x` : `${f.toFixed(1)}x`;
}

function fixFor(r: RuleCost): string {
  return r.missingBounds.length > 0
    ? `bound what the rule reads: add ${r.missingBounds.join(", ")} (+kubebuilder:validation:MaxItems, MaxProperties, MaxLength)`
    : "lower the bounds it reads (maxItems, maxProperties, maxLength) or simplify the rule";
}

const describe = (r: RuleCost) =>
  `CEL rule ${JSON.stringify(r.rule)} on ${r.where || "the root"} costs an estimated ${n(r.cost)} per evaluation × ${n(r.cardinality)} evaluations = ${n(r.total)}`;

/**
 * The rules kube-apiserver would refuse for their estimated cost: each over the per-rule budget, and,
 * when a version's rules together exceed the per-CRD budget, every rule contributing at least 1% of
 * it (as the API server names them). Errors, since the API server refuses such a CRD.
 */
export function celCostErrors(inputs: CostGateInput[]): KbtsError[] {
  const errors: KbtsError[] = [];
  for (const { crd, version, schema, locate } of inputs) {
    const costs = celRuleCosts(schema);
    for (const r of costs) {
      if ((r.messageCost ?? 0) > PER_RULE_COST_LIMIT) {
        errors.push(
          new KbtsError(
            `the messageExpression of CEL rule ${JSON.stringify(r.rule)} on ${r.where || "the root"} costs an estimated ${n(r.messageCost ?? 0)}, over the API server's budget of ${n(PER_RULE_COST_LIMIT)} by ${overBy(r.messageCost ?? 0, PER_RULE_COST_LIMIT)}: kube-apiserver would refuse CRD ${crd} (version ${version})`,
            { where: locate(r.schema, r.rule), fix: fixFor(r) },
          ),
        );
      }
      if (r.total <= PER_RULE_COST_LIMIT) continue;
      errors.push(
        new KbtsError(
          `${describe(r)}, over the API server's per-rule budget of ${n(PER_RULE_COST_LIMIT)} by ${overBy(r.total, PER_RULE_COST_LIMIT)}: kube-apiserver would refuse CRD ${crd} (version ${version})`,
          { where: locate(r.schema, r.rule), fix: fixFor(r) },
        ),
      );
    }
    const total = schemaCost(costs);
    if (total <= PER_SCHEMA_COST_LIMIT) continue;
    const big = costs
      .filter((r) => r.total >= PER_SCHEMA_COST_LIMIT / 100)
      .sort((a, b) => b.total - a.total)
      .slice(0, 4);
    for (const r of big) {
      errors.push(
        new KbtsError(
          `${describe(r)}; the rules of CRD ${crd} version ${version} together cost ${n(total)}, over the API server's per-CRD budget of ${n(PER_SCHEMA_COST_LIMIT)} by ${overBy(total, PER_SCHEMA_COST_LIMIT)}: kube-apiserver would refuse it`,
          { where: locate(r.schema, r.rule), fix: fixFor(r) },
        ),
      );
    }
  }
  return errors;
}

/** Whether the API server would refuse this schema for CEL cost (what the gate reports, as a verdict). */
export function exceedsCelBudget(schema: JSONSchemaProps): boolean {
  const costs = celRuleCosts(schema);
  const total = schemaCost(costs);
  return (
    total > PER_SCHEMA_COST_LIMIT ||
    costs.some((r) => r.total > PER_RULE_COST_LIMIT || (r.messageCost ?? 0) > PER_RULE_COST_LIMIT)
  );
}
