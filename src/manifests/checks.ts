import type { JSONSchemaProps } from "@kbts/runtime";
import { ts } from "ts-morph";
import type { BuiltCrd } from "../crd/build.js";
import { KbtsError } from "../errors.js";
import type { MarkerCollector } from "../markers/collect.js";
import { formatLocation, type MarkerSet } from "../markers/registry.js";

/**
 * Checks beyond controller-gen, against the resolved schemas: the TypeScript types are walked
 * alongside the generated schema so every marker meets the schema node it produced, and each
 * marker's own `check` (printcolumn and selectablefield paths, listMapKey fields, default values,
 * CEL rules) reports at the marker. A root kind's type markers meet the version's whole schema.
 */
export function checkCrds(
  crds: BuiltCrd[],
  collector: MarkerCollector,
  checker: ts.TypeChecker,
  errors: KbtsError[],
): void {
  for (const { crd, versions } of crds) {
    for (const v of crd.spec.versions) {
      const kind = versions.get(v.name);
      if (!kind) continue;
      const root = v.schema.openAPIV3Schema;
      new Walk(collector, checker, errors, root).type(
        checker.getTypeAtLocation(kind.decl.name),
        root,
        kind.decl.name.text,
        0,
      );
    }
  }
}

class Walk {
  private seen = new Set<ts.Type>();
  constructor(
    private readonly collector: MarkerCollector,
    private readonly checker: ts.TypeChecker,
    private readonly errors: KbtsError[],
    private readonly root: JSONSchemaProps,
  ) {}

  /** A TS type and the schema it produced; type-level markers of its declaration are checked here. */
  type(type: ts.Type, schema: JSONSchemaProps, owner: string, depth: number): void {
    if (depth > 40 || this.seen.has(type)) return;
    const decl = type.aliasSymbol?.declarations?.[0] ?? type.getSymbol()?.declarations?.[0];
    if (decl && (ts.isInterfaceDeclaration(decl) || ts.isTypeAliasDeclaration(decl))) {
      this.markers(this.collector.forNode(decl).markers, schema, decl.name.text);
    }
    if (schema.type === "array" && schema.items) {
      const el = this.elementType(type);
      if (el) this.type(el, schema.items, owner, depth + 1);
      return;
    }
    if (!schema.properties) return;
    this.seen.add(type);
    for (const prop of this.checker.getPropertiesOfType(type)) {
      const pd = (prop.valueDeclaration ?? prop.declarations?.[0]) as ts.Declaration | undefined;
      const ps = schema.properties[prop.getName()];
      if (!pd || !ps || !ts.isPropertySignature(pd) || !pd.type) continue;
      this.markers(this.collector.forNode(pd).markers, ps, `${owner}.${prop.getName()}`);
      this.type(this.checker.getTypeFromTypeNode(pd.type), ps, `${owner}.${prop.getName()}`, depth + 1);
    }
    this.seen.delete(type);
  }

  private elementType(type: ts.Type): ts.Type | undefined {
    const t = type.getNonNullableType();
    if (this.checker.isArrayType(t)) return this.checker.getTypeArguments(t as ts.TypeReference)[0];
    return undefined;
  }

  private markers(markers: MarkerSet, schema: JSONSchemaProps, owner: string): void {
    for (const m of markers.all) {
      for (const p of m.def.check?.(m.value, { schema, owner, isRoot: schema === this.root }) ?? []) {
        this.errors.push(
          new KbtsError(p.message, { where: formatLocation(m.loc), ...(p.fix ? { fix: p.fix } : {}) }),
        );
      }
    }
  }
}
