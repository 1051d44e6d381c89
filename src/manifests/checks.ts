import type { JSONSchemaProps } from "@kbts/runtime";
import type { BuiltCrd } from "../crd/build.js";
import { KbtsError } from "../errors.js";
import type { MarkerCollector } from "../markers/collect.js";
import { formatLocation, type MarkerSet } from "../markers/registry.js";
import { celCostErrors } from "../schema/cel-cost-gate.js";
import { ts } from "../ts/typescript.js";
import { nodeWhere } from "../ts/where.js";

/**
 * Checks beyond controller-gen, against the resolved schemas: the TypeScript types are walked
 * alongside the generated schema (visitMarkers) so every marker meets the schema node it produced, and each
 * marker's own `check` (printcolumn and selectablefield paths, listMapKey fields, default values,
 * CEL rules) reports at the marker. A root kind's type markers meet the version's whole schema.
 */
export function checkCrds(
  crds: BuiltCrd[],
  collector: MarkerCollector,
  checker: ts.TypeChecker,
  errors: KbtsError[],
): void {
  // Where each CEL rule was written, for the cost gate (which sees whole schemas, not markers).
  const ruleAt = new Map<JSONSchemaProps, Map<string, string>>();
  visitMarkers(crds, collector, checker, ({ markers, schema, owner, isRoot }) => {
    for (const m of markers.all) {
      const rule = (m.value as { rule?: unknown } | undefined)?.rule;
      if (typeof rule === "string") {
        const at = ruleAt.get(schema) ?? new Map<string, string>();
        at.set(rule, formatLocation(m.loc));
        ruleAt.set(schema, at);
      }
      for (const p of m.def.check?.(m.value, { schema, owner, isRoot }) ?? []) {
        errors.push(
          new KbtsError(p.message, { where: formatLocation(m.loc), ...(p.fix ? { fix: p.fix } : {}) }),
        );
      }
    }
  });
  errors.push(
    ...celCostErrors(
      crds.flatMap(({ crd, versions }) =>
        crd.spec.versions.flatMap((v) => {
          const decl = versions.get(v.name)?.decl;
          if (!decl) return [];
          const kindAt = nodeWhere(collector.root, decl);
          return [
            {
              crd: crd.metadata.name,
              version: v.name,
              schema: v.schema.openAPIV3Schema,
              locate: (node: JSONSchemaProps, rule: string) => ruleAt.get(node)?.get(rule) ?? kindAt,
            },
          ];
        }),
      ),
    ),
  );
}

/** One declaration's markers meeting the schema node they produced. */
export interface MarkersAtNode {
  crd: string;
  version: string;
  markers: MarkerSet;
  schema: JSONSchemaProps;
  /** The type or field path the markers are on, e.g. "GPUBudget.spec". */
  owner: string;
  /** The node's place in the version's schema: "" for the root, ".spec.items[*].name". */
  path: string;
  isRoot: boolean;
  /** The property signature or the type declaration the markers are written on. */
  decl: ts.Node;
}

/**
 * Walks each version's TypeScript types alongside its generated schema and hands every declaration's
 * markers with their schema node to `visit` (the checks here, and the breaking-change gate's sources).
 */
export function visitMarkers(
  crds: BuiltCrd[],
  collector: MarkerCollector,
  checker: ts.TypeChecker,
  visit: (node: MarkersAtNode) => void,
): void {
  for (const { crd, versions } of crds) {
    for (const v of crd.spec.versions) {
      const kind = versions.get(v.name);
      if (!kind) continue;
      const root = v.schema.openAPIV3Schema;
      new Walk(collector, checker, root, (n) =>
        visit({ crd: crd.metadata.name, version: v.name, ...n }),
      ).type(checker.getTypeAtLocation(kind.decl.name), root, kind.decl.name.text, "", 0);
    }
  }
}

class Walk {
  private seen = new Set<ts.Type>();
  constructor(
    private readonly collector: MarkerCollector,
    private readonly checker: ts.TypeChecker,
    private readonly root: JSONSchemaProps,
    private readonly visit: (node: Omit<MarkersAtNode, "crd" | "version">) => void,
  ) {}

  /** A TS type and the schema it produced; type-level markers of its declaration are visited here. */
  type(type: ts.Type, schema: JSONSchemaProps, owner: string, path: string, depth: number): void {
    if (depth > 40 || this.seen.has(type)) return;
    const decl = type.aliasSymbol?.declarations?.[0] ?? type.getSymbol()?.declarations?.[0];
    if (decl && (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl))) {
      this.markers(this.collector.forNode(decl).markers, schema, decl.name.text, path, decl);
    }
    if (schema.type === "array" && schema.items) {
      const el = this.elementType(type);
      if (el) this.type(el, schema.items, owner, `${path}[*]`, depth + 1);
      return;
    }
    if (!schema.properties) return;
    this.seen.add(type);
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const pd = (prop.valueDeclaration ?? prop.declarations?.[0]) as ts.Declaration | undefined;
      const ps = schema.properties[prop.getName()];
      if (!pd || !ps || !ts.isPropertySignature(pd) || !pd.type) continue;
      const at = `${path}.${prop.getName()}`;
      this.markers(this.collector.forNode(pd).markers, ps, `${owner}.${prop.getName()}`, at, pd);
      this.type(this.checker.getTypeFromTypeNode(pd.type), ps, `${owner}.${prop.getName()}`, at, depth + 1);
    }
    this.seen.delete(type);
  }

  private elementType(type: ts.Type): ts.Type | undefined {
    const t = type.getNonNullableType();
    if (this.checker.isArrayType(t)) return this.checker.getTypeArguments(t as ts.TypeReference)[0];
    return undefined;
  }

  private markers(
    markers: MarkerSet,
    schema: JSONSchemaProps,
    owner: string,
    path: string,
    decl: ts.Node,
  ): void {
    this.visit({ markers, schema, owner, path, isRoot: schema === this.root, decl });
  }
}
