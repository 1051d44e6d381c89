import { describe, expect, it } from "vitest";
import { CASES } from "../../testdata/cel-cost/cases.js";
import { celRuleCosts } from "./cel-cost.js";
import { exceedsCelBudget } from "./cel-cost-gate.js";

const caseSchema = (name: string) => {
  const c = CASES.find((x) => x.name === name);
  if (!c) throw new Error(`no case ${name}`);
  return c.schema;
};

describe("CEL cost estimate (kube-apiserver's static estimator)", () => {
  it.each(CASES.map((c) => [c.name, c.refused] as const))("%s: refused %s", (name, refused) => {
    expect(exceedsCelBudget(caseSchema(name))).toBe(refused);
  });

  it("gives the API server's figures (it printed 1.000500x and 6.3x the 10,000,000 budget for these)", () => {
    expect(celRuleCosts(caseSchema("pairs-over")).map((r) => r.total)).toEqual([10_005_002]);
    expect(celRuleCosts(caseSchema("all-matches-no-maxlength")).map((r) => r.total)).toEqual([62_915_002]);
  });

  it("multiplies by the bounds of the lists above a rule, or the request-size estimate when unbounded", () => {
    const [nested] = celRuleCosts(caseSchema("nested-cardinality-over"));
    expect([nested?.cost, nested?.cardinality]).toEqual([53, 188_700]);
    const [unbounded] = celRuleCosts(caseSchema("unbounded-objects-string-compare"));
    expect(unbounded?.cardinality).toBe(1_048_576);
    expect(unbounded?.missingBounds).toEqual(["maxItems on spec.items"]);
  });

  it("names the missing bounds", () => {
    expect(celRuleCosts(caseSchema("all-matches-unbounded"))[0]?.missingBounds.sort()).toEqual([
      "maxItems on spec.names",
      "maxLength on spec.names[*]",
    ]);
  });
});
