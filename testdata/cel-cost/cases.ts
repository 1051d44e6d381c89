/**
 * CEL rules near kube-apiserver's cost budgets (10,000,000 per rule × its evaluations; 100,000,000 per
 * version's schema), each case a version schema. `refused` is what kbts predicts; cel-cost.int.test.ts
 * holds the real API server to the same verdict, and to the same estimate where the server prints it.
 */
import type { JSONSchemaProps } from "@kbts/runtime";

export interface CelCostCase {
  name: string;
  /** The version's openAPIV3Schema. */
  schema: JSONSchemaProps;
  refused: boolean;
}

const str = (maxLength?: number): JSONSchemaProps => ({
  type: "string",
  ...(maxLength === undefined ? {} : { maxLength }),
});
const list = (items: JSONSchemaProps, maxItems?: number, rule?: string): JSONSchemaProps => ({
  type: "array",
  items,
  ...(maxItems === undefined ? {} : { maxItems }),
  ...(rule ? { "x-kubernetes-validations": [{ rule, message: "no" }] } : {}),
});
const ruled = (s: JSONSchemaProps, ...rules: string[]): JSONSchemaProps => ({
  ...s,
  "x-kubernetes-validations": rules.map((rule) => ({ rule, message: "no" })),
});
/** A root with `spec` holding the given properties. */
const root = (spec: Record<string, JSONSchemaProps>): JSONSchemaProps => ({
  type: "object",
  properties: {
    apiVersion: { type: "string" },
    kind: { type: "string" },
    metadata: { type: "object" },
    spec: { type: "object", properties: spec },
  },
});

const MATCH_ALL = "self.all(x, x.matches('^[a-z]+$'))";
const PAIRS = "self.all(x, self.exists(y, x == y))";

export const CASES: CelCostCase[] = [
  // 2 + maxItems × 56 on 64-character strings: 178,571 items is just within the budget, one more is over.
  { name: "all-matches-at-limit", schema: root({ names: list(str(64), 178571, MATCH_ALL) }), refused: false },
  {
    name: "all-matches-over-limit",
    schema: root({ names: list(str(64), 178572, MATCH_ALL) }),
    refused: true,
  },
  // No maxItems and no maxLength: sizes come from the 3 MiB request limit.
  {
    name: "all-matches-unbounded",
    schema: root({ names: list(str(), undefined, MATCH_ALL) }),
    refused: true,
  },
  { name: "all-matches-no-maxlength", schema: root({ names: list(str(), 100, MATCH_ALL) }), refused: true },
  // A rule on each item (cost 53) runs maxItems times.
  {
    name: "item-rule-within",
    schema: root({ names: list(ruled(str(64), "self.matches('^[a-z]+$')"), 188679) }),
    refused: false,
  },
  {
    name: "item-rule-over",
    schema: root({ names: list(ruled(str(64), "self.matches('^[a-z]+$')"), 188680) }),
    refused: true,
  },
  // Nested lists multiply: 100 × 1,887 (or 1,886) items of a rule costing 53.
  {
    name: "nested-cardinality-over",
    schema: root({ groups: list(list(ruled(str(64), "self.matches('^[a-z]+$')"), 1887), 100) }),
    refused: true,
  },
  {
    name: "nested-cardinality-within",
    schema: root({ groups: list(list(ruled(str(64), "self.matches('^[a-z]+$')"), 1886), 100) }),
    refused: false,
  },
  // An unbounded list of objects: the rule on each object runs as often as the smallest object ("{}")
  // fits in 3 MiB, 1,048,576 times: a cost of 9 is within the budget, 10 is over.
  {
    name: "unbounded-objects-cheap-rule",
    schema: root({
      items: list(
        ruled(
          { type: "object", properties: { name: str(100) } },
          `self.name.startsWith('${"a".repeat(70)}')`,
        ),
      ),
    }),
    refused: false,
  },
  {
    name: "unbounded-objects-string-compare",
    schema: root({
      items: list(
        ruled(
          { type: "object", properties: { name: str(100) } },
          `self.name.startsWith('${"a".repeat(71)}')`,
        ),
      ),
    }),
    refused: true,
  },
  // Quadratic: every pair of a list's strings (999 items cost 9,985,007; 1,000 cost 10,005,002).
  { name: "pairs-within", schema: root({ tags: list(str(10), 999, PAIRS) }), refused: false },
  { name: "pairs-over", schema: root({ tags: list(str(10), 1000, PAIRS) }), refused: true },
  // A map's values: 2 + 7 per key.
  {
    name: "map-values-within",
    schema: root({
      labels: ruled(
        { type: "object", additionalProperties: str(63), maxProperties: 1428571 },
        "self.all(k, self[k].startsWith('a'))",
      ),
    }),
    refused: false,
  },
  {
    name: "map-values-over",
    schema: root({
      labels: ruled(
        { type: "object", additionalProperties: str(63), maxProperties: 1428572 },
        "self.all(k, self[k].startsWith('a'))",
      ),
    }),
    refused: true,
  },
  {
    name: "map-values-unbounded",
    schema: root({
      labels: ruled({ type: "object", additionalProperties: str() }, "self.all(k, self[k].contains('abc'))"),
    }),
    refused: true,
  },
  // Each rule within its budget (9,800,002), the version's rules together over 100,000,000 (11 of them) or within it (10).
  {
    name: "total-over",
    schema: root(
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`f${i}`, list(str(64), 175000, MATCH_ALL)])),
    ),
    refused: true,
  },
  {
    name: "total-within",
    schema: root(
      Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, list(str(64), 175000, MATCH_ALL)])),
    ),
    refused: false,
  },
  // A messageExpression is held to the per-rule budget alone (not times its evaluations).
  {
    name: "message-expression-over",
    schema: root({
      names: {
        ...list(str(), 50),
        "x-kubernetes-validations": [
          { rule: "self.size() < 50", messageExpression: "self.map(x, x + x).join(', ') + ' too many'" },
        ],
      },
    }),
    refused: true,
  },
  {
    name: "message-expression-within",
    schema: root({
      names: {
        ...list(str(64), 50),
        "x-kubernetes-validations": [
          { rule: "self.size() < 50", messageExpression: "self.join(', ') + ' are too many'" },
        ],
      },
    }),
    refused: false,
  },
  // Cheap rules on bounded data.
  {
    name: "cheap-root-rule",
    schema: {
      ...root({ replicas: { type: "integer" } }),
      "x-kubernetes-validations": [{ rule: "self.spec.replicas >= 0" }],
    },
    refused: false,
  },
  {
    name: "transition-rule",
    schema: root({ name: ruled(str(253), "self == oldSelf") }),
    refused: false,
  },
];
