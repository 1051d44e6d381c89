import type { JSONSchemaProps } from "@kbts/runtime";
import { celPropertyName } from "@kbts/runtime/validation";
import { type ASTNode, Environment } from "@marcbachmann/cel-js";

/**
 * The static cost of x-kubernetes-validations rules, estimated as kube-apiserver estimates it when a
 * CRD is created (apiextensions-apiserver's CRD validation over cel-go's checker cost estimator with
 * Kubernetes' size estimator and library costs): a rule's worst-case cost times the number of times
 * it can run (the product of maxItems/maxProperties of the lists and maps above it, or an estimate
 * from the 3 MiB request limit when one is unbounded) must stay within 10,000,000, and the rules of
 * one version's schema together within 100,000,000. The semantics are the API server's, written anew.
 */

export const PER_RULE_COST_LIMIT = 10_000_000;
export const PER_SCHEMA_COST_LIMIT = 100_000_000;
const MAX_REQUEST_BYTES = 3 * 1024 * 1024;
const MAXU = 2 ** 64 - 1;
const STRING_TRAVERSAL = 0.1;
const REGEX_LENGTH = 0.25;

type Range = [min: number, max: number];

const add = (a: number, b: number) => Math.min(a + b, MAXU);
const mul = (a: number, b: number) => (a === 0 || b === 0 ? 0 : Math.min(a * b, MAXU));
const factor = (x: number, f: number) =>
  x > 0 && f > 0 && x > MAXU / f ? MAXU : Math.min(Math.ceil(x * f), MAXU);
const addR = (a: Range, b: Range): Range => [add(a[0], b[0]), add(a[1], b[1])];
const mulR = (a: Range, b: Range): Range => [mul(a[0], b[0]), mul(a[1], b[1])];
const factorR = (a: Range, f: number): Range => [factor(a[0], f), factor(a[1], f)];
const unionR = (a: Range, b: Range): Range => [Math.min(a[0], b[0]), Math.max(a[1], b[1])];
const fixed = (n: number): Range => [n, n];
const UNKNOWN: Range = [0, MAXU];

/** A schema node as CEL sees it (the API server's DeclType): its kind, element bound and smallest JSON size. */
export interface Decl {
  kind:
    | "object"
    | "map"
    | "list"
    | "string"
    | "bytes"
    | "int"
    | "double"
    | "bool"
    | "dyn"
    | "timestamp"
    | "duration";
  /** maxLength×4 (bytes), maxItems, maxProperties, or the estimate from the request size; 0 for scalars. */
  maxElements: number;
  minSize: number;
  fields?: Map<string, Decl>;
  elem?: Decl;
  key?: Decl;
  /** The schema path of this node and, when its size bound was estimated, the marker that would bound it. */
  where: string;
  missingBound?: string;
}

const maxStringPerRequest = (s: JSONSchemaProps): number => {
  if (s["x-kubernetes-int-or-string"]) return MAX_REQUEST_BYTES - 2;
  switch (s.format) {
    case "duration":
    case "date-time":
      return 32;
    case "date":
      return 12;
    default:
      return MAX_REQUEST_BYTES - 2;
  }
};
const nonNegative = (n: number) => Math.max(0, n);

/** The CEL declaration of a structural schema node (isRoot: a resource root, which always has metadata.name). */
export function declOf(s: JSONSchemaProps, isRoot: boolean, where: string): Decl | undefined {
  if (s["x-kubernetes-int-or-string"]) {
    const bounded = s.maxLength !== undefined;
    return {
      kind: "dyn",
      minSize: 1,
      maxElements: bounded ? nonNegative(s.maxLength as number) * 4 : maxStringPerRequest(s),
      where,
      ...(bounded ? {} : { missingBound: `maxLength on ${where}` }),
    };
  }
  let schema = s;
  if (isRoot) schema = withTypeAndObjectMeta(s);
  switch (schema.type) {
    case "array": {
      if (!schema.items || Array.isArray(schema.items)) return undefined;
      const items = schema.items as JSONSchemaProps;
      const elem = declOf(items, !!items["x-kubernetes-embedded-resource"], `${where}[*]`);
      if (!elem) return undefined;
      const bounded = schema.maxItems !== undefined;
      return {
        kind: "list",
        elem,
        minSize: 2,
        maxElements: bounded
          ? nonNegative(schema.maxItems as number)
          : Math.floor((MAX_REQUEST_BYTES - 2) / (elem.minSize + 1)),
        where,
        ...(bounded ? {} : { missingBound: `maxItems on ${where}` }),
      };
    }
    case "object": {
      const ap = schema.additionalProperties;
      if (ap && typeof ap === "object") {
        const elem = declOf(ap, !!ap["x-kubernetes-embedded-resource"], `${where}[*]`);
        if (!elem) return undefined;
        const bounded = schema.maxProperties !== undefined;
        return {
          kind: "map",
          key: { kind: "string", maxElements: 0, minSize: 2, where: `${where} keys` },
          elem,
          minSize: 2,
          maxElements: bounded
            ? nonNegative(schema.maxProperties as number)
            : Math.floor((MAX_REQUEST_BYTES - 2) / (elem.minSize + 6)),
          where,
          ...(bounded ? {} : { missingBound: `maxProperties on ${where}` }),
        };
      }
      const fields = new Map<string, Decl>();
      const required = new Set(schema.required ?? []);
      let minSize = 2;
      for (const [name, prop] of Object.entries(schema.properties ?? {})) {
        const field = declOf(
          prop,
          !!prop["x-kubernetes-embedded-resource"],
          where ? `${where}.${name}` : name,
        );
        if (!field) continue;
        const escaped = celPropertyName(name);
        if (escaped !== undefined) fields.set(escaped, field);
        if (required.has(name) && prop.default === undefined) minSize += name.length + field.minSize + 4;
      }
      return { kind: "object", fields, minSize, maxElements: 0, where };
    }
    case "string": {
      switch (schema.format) {
        case "byte": {
          const bounded = schema.maxLength !== undefined;
          return {
            kind: "bytes",
            minSize: 2,
            maxElements: bounded ? nonNegative(schema.maxLength as number) : maxStringPerRequest(schema),
            where,
            ...(bounded ? {} : { missingBound: `maxLength on ${where}` }),
          };
        }
        case "duration":
          return { kind: "duration", minSize: 3, maxElements: 32, where };
        case "date":
          return { kind: "timestamp", minSize: 12, maxElements: 12, where };
        case "date-time":
          return { kind: "timestamp", minSize: 21, maxElements: 32, where };
      }
      if (schema.maxLength !== undefined)
        return { kind: "string", minSize: 2, maxElements: nonNegative(schema.maxLength) * 4, where };
      if ((schema.enum ?? []).length > 0) {
        const longest = Math.max(
          0,
          ...(schema.enum ?? []).map((e) => (typeof e === "string" ? e.length : 0)),
        );
        return { kind: "string", minSize: 2, maxElements: longest, where };
      }
      return {
        kind: "string",
        minSize: 2,
        maxElements: maxStringPerRequest(schema),
        where,
        missingBound: `maxLength on ${where}`,
      };
    }
    case "boolean":
      return { kind: "bool", minSize: 4, maxElements: 0, where };
    case "number":
      return { kind: "double", minSize: 1, maxElements: 0, where };
    case "integer":
      return { kind: "int", minSize: 1, maxElements: 0, where };
  }
  return undefined;
}

/** kind, apiVersion, metadata.name and metadata.generateName are always there at a resource's root. */
function withTypeAndObjectMeta(s: JSONSchemaProps): JSONSchemaProps {
  const p = s.properties ?? {};
  const meta = p.metadata;
  if (
    p.kind?.type === "string" &&
    p.apiVersion?.type === "string" &&
    meta?.type === "object" &&
    meta.properties?.name?.type === "string" &&
    meta.properties?.generateName?.type === "string"
  )
    return s;
  const str: JSONSchemaProps = { type: "string" };
  return {
    ...s,
    properties: {
      ...p,
      kind: str,
      apiVersion: str,
      metadata: { type: "object", properties: { name: str, generateName: str } },
    },
  };
}

/** CEL types, as far as cost estimation needs them. */
interface CelType {
  k:
    | "struct"
    | "map"
    | "list"
    | "string"
    | "bytes"
    | "int"
    | "uint"
    | "double"
    | "bool"
    | "null"
    | "timestamp"
    | "duration"
    | "dyn"
    | "opaque";
  elem?: CelType;
}
const T = (k: CelType["k"], elem?: CelType): CelType => (elem ? { k, elem } : { k });
const DYN = T("dyn");
const typeOfDecl = (d: Decl): CelType => {
  switch (d.kind) {
    case "object":
      return T("struct");
    case "map":
      return T("map", d.elem ? typeOfDecl(d.elem) : DYN);
    case "list":
      return T("list", d.elem ? typeOfDecl(d.elem) : DYN);
    default:
      return T(d.kind);
  }
};
const isScalar = (t: CelType) => ["bool", "double", "duration", "int", "timestamp", "uint"].includes(t.k);

/** What the estimator knows about one expression. */
interface Val {
  cost: Range;
  type: CelType;
  /** cel-go's field path of the expression ("self", field names, "@items", ...), when it has one. */
  path?: string[];
  /** A size set by the expression itself (literals, call results), ahead of the schema's. */
  size?: Range;
  /** Sizes of a list's or map's entries, when known from how it was built. */
  entry?: { key: Range; val: Range };
  literal?: unknown;
  /** A local variable's own size: used only when neither the schema nor the type gives one. */
  fallback?: Range;
}

interface Local {
  path: string[];
  size?: Range;
  entry?: { key: Range; val: Range };
  type: CelType;
}

const celSyntax = new Environment({ enableOptionalTypes: true });

/** Estimates one expression's worst-case cost on the schema node `root` (the node carrying the rule). */
export class CostEstimator {
  private readonly locals = new Map<string, Local[]>();
  /** Schema nodes whose unbounded size made the estimate (what to bound). */
  readonly unbounded = new Set<string>();

  constructor(private readonly root: Decl) {}

  estimate(expression: string): Range {
    const { ast } = celSyntax.parse(expression);
    return this.cost(ast).cost;
  }

  /** k8s' size estimator: walk the declaration from the rule's node along the path (its first element is the variable). */
  private declAt(path: string[] | undefined): Decl | undefined {
    if (!path || path.length === 0) return undefined;
    let node: Decl | undefined = this.root;
    for (const name of path.slice(1)) {
      if (!node) return undefined;
      if (name === "@items" || name === "@values") node = node.elem;
      else if (name === "@keys") node = node.key;
      else node = node.fields?.get(name);
    }
    return node;
  }

  private sizeOf(v: Val): Range | undefined {
    if (v.size) return v.size;
    const decl = this.declAt(v.path);
    if (decl) {
      if (decl.missingBound) this.unbounded.add(decl.missingBound);
      return [0, decl.maxElements];
    }
    if (isScalar(v.type)) return [1, 1];
    return v.fallback;
  }
  private sizeOrUnknown(v: Val): Range {
    return this.sizeOf(v) ?? UNKNOWN;
  }

  private push(name: string, local: Local) {
    this.locals.set(name, [...(this.locals.get(name) ?? []), local]);
  }
  private pop(name: string) {
    this.locals.get(name)?.pop();
  }
  private peek(name: string): Local | undefined {
    const stack = this.locals.get(name);
    return stack?.[stack.length - 1];
  }

  private cost(node: ASTNode): Val {
    switch (node.op) {
      case "value":
        return this.literal(node.args);
      case "id":
        return this.ident(node.args);
      case ".":
      case ".?": {
        const [operand, field] = node.args;
        const o = this.cost(operand);
        const extra = o.type.k === "map" || o.type.k === "struct" ? 1 : 0;
        const decl = this.declAt(o.path ? [...o.path, field] : undefined);
        return {
          cost: addR(o.cost, fixed(extra)),
          type: decl ? typeOfDecl(decl) : o.type.k === "map" && o.type.elem ? o.type.elem : DYN,
          ...(o.path ? { path: [...o.path, field] } : {}),
        };
      }
      case "list": {
        let sum: Range = [0, 0];
        let item: Range = node.args.length === 0 ? [0, 0] : [MAXU, 0];
        let elemType: CelType = DYN;
        for (const e of node.args) {
          const v = this.cost(e);
          sum = addR(sum, v.cost);
          item = unionR(item, this.sizeOrUnknown(v));
          elemType = v.type;
        }
        return {
          cost: addR(sum, fixed(10)),
          type: T("list", elemType),
          size: fixed(node.args.length),
          entry: { key: [1, 1], val: item },
        };
      }
      case "map": {
        let sum: Range = [0, 0];
        let key: Range = node.args.length === 0 ? [0, 0] : [MAXU, 0];
        let val: Range = node.args.length === 0 ? [0, 0] : [MAXU, 0];
        let elemType: CelType = DYN;
        for (const [k, v] of node.args) {
          const kv = this.cost(k);
          const vv = this.cost(v);
          sum = addR(addR(sum, kv.cost), vv.cost);
          key = unionR(key, this.sizeOrUnknown(kv));
          val = unionR(val, this.sizeOrUnknown(vv));
          elemType = vv.type;
        }
        return {
          cost: addR(sum, fixed(30)),
          type: T("map", elemType),
          size: fixed(node.args.length),
          entry: { key, val },
        };
      }
      case "&&":
      case "||": {
        const l = this.cost(node.args[0]);
        const r = this.cost(node.args[1]);
        return { cost: [l.cost[0], add(l.cost[1], r.cost[1])], type: T("bool") };
      }
      case "?:": {
        const c = this.cost(node.args[0]);
        const t = this.cost(node.args[1]);
        const f = this.cost(node.args[2]);
        return {
          cost: addR(c.cost, unionR(t.cost, f.cost)),
          type: t.type.k === "dyn" ? f.type : t.type,
          size: unionR(this.sizeOrUnknown(t), this.sizeOrUnknown(f)),
          ...(t.entry && f.entry
            ? { entry: { key: unionR(t.entry.key, f.entry.key), val: unionR(t.entry.val, f.entry.val) } }
            : {}),
        };
      }
      case "!_":
      case "-_": {
        const v = this.cost(node.args);
        return { cost: addR(fixed(1), v.cost), type: node.op === "!_" ? T("bool") : v.type };
      }
      case "[]":
      case "[?]": {
        const [container, index] = node.args;
        const c = this.cost(container);
        const i = this.cost(index);
        const sub = c.type.k === "list" ? "@items" : "@values";
        const path = c.path ? [...c.path, sub] : undefined;
        return {
          cost: addR(fixed(1), addR(c.cost, i.cost)),
          type: c.type.elem ?? DYN,
          ...(c.entry ? { size: c.entry.val } : {}),
          ...(path ? { path } : {}),
        };
      }
      case "call":
        return this.call(node.args[0], undefined, node.args[1]);
      case "rcall":
        return this.call(node.args[0], node.args[1], node.args[2]);
      default:
        return this.binary(node.op, node.args as [ASTNode, ASTNode]);
    }
  }

  private literal(value: unknown): Val {
    if (typeof value === "string")
      return { cost: [0, 0], type: T("string"), size: fixed([...value].length), literal: value };
    if (value instanceof Uint8Array) return { cost: [0, 0], type: T("bytes"), size: fixed(value.length) };
    const type =
      typeof value === "boolean"
        ? T("bool")
        : typeof value === "bigint"
          ? T("int")
          : typeof value === "number"
            ? T("double")
            : value === null
              ? T("null")
              : T("uint");
    return { cost: [0, 0], type, size: [1, 1], literal: value };
  }

  private ident(name: string): Val {
    const local = this.peek(name);
    if (local) {
      return {
        cost: [1, 1],
        type: local.type,
        path: local.path,
        ...(local.size ? { fallback: local.size } : {}),
        ...(local.entry ? { entry: local.entry } : {}),
      };
    }
    const decl = name === "self" || name === "oldSelf" ? this.root : undefined;
    return { cost: [1, 1], type: decl ? typeOfDecl(decl) : DYN, path: [name] };
  }

  private binary(op: string, [lhs, rhs]: [ASTNode, ASTNode]): Val {
    const l = this.cost(lhs);
    const r = this.cost(rhs);
    const args = addR(l.cost, r.cost);
    const textual = (t: CelType) => t.k === "string" || t.k === "bytes";
    switch (op) {
      case "==":
      case "!=":
        return { cost: addR(this.comparison(l, r), args), type: T("bool") };
      case "<":
      case "<=":
      case ">":
      case ">=":
        if (textual(l.type) && textual(r.type))
          return { cost: addR(this.comparison(l, r), args), type: T("bool") };
        return { cost: addR(fixed(1), args), type: T("bool") };
      case "in":
        if (r.type.k === "list") return { cost: addR(this.sizeOrUnknown(r), args), type: T("bool") };
        return { cost: addR(fixed(1), args), type: T("bool") };
      case "+": {
        if (textual(l.type) || l.type.k === "list") {
          const size = addR(this.sizeOrUnknown(l), this.sizeOrUnknown(r));
          const entry =
            l.entry && r.entry
              ? { key: unionR(l.entry.key, r.entry.key), val: unionR(l.entry.val, r.entry.val) }
              : (l.entry ?? r.entry);
          const cost =
            l.type.k === "list" ? addR(fixed(1), args) : addR(factorR(size, STRING_TRAVERSAL), args);
          return { cost, type: l.type, size, ...(entry ? { entry } : {}) };
        }
        return { cost: addR(fixed(1), args), type: l.type };
      }
      default:
        return { cost: addR(fixed(1), args), type: l.type };
    }
  }

  /** Equality and string ordering: the shorter operand is traversed. */
  private comparison(l: Val, r: Val): Range {
    const smallestMax = Math.min(this.sizeOrUnknown(l)[1], this.sizeOrUnknown(r)[1]);
    return factorR([smallestMax > 0 ? 1 : 0, smallestMax], STRING_TRAVERSAL);
  }

  private call(name: string, targetNode: ASTNode | undefined, argNodes: ASTNode[]): Val {
    if (targetNode) {
      const macro = this.macro(name, targetNode, argNodes);
      if (macro) return macro;
    }
    if (name === "has" && !targetNode && argNodes.length === 1) {
      // has(x.f): the presence test costs nothing in the API server's environment; its operand does.
      const arg = argNodes[0] as ASTNode;
      const operand = arg.op === "." || arg.op === ".?" ? arg.args[0] : arg;
      return { cost: this.cost(operand).cost, type: T("bool") };
    }
    if (name === "dyn" && argNodes.length === 1) {
      const v = this.cost(argNodes[0] as ASTNode);
      return { ...v, cost: addR(fixed(1), v.cost), type: DYN };
    }
    const target = targetNode ? this.cost(targetNode) : undefined;
    const args = argNodes.map((a) => this.cost(a));
    const argSum = args.reduce<Range>((s, a) => addR(s, a.cost), [0, 0]);
    const base = target ? target.cost : ([0, 0] as Range);
    const out = (fn: Range, type: CelType, size?: Range): Val => ({
      cost: addR(base, addR(fn, argSum)),
      type,
      ...(size ? { size } : {}),
    });
    const a0 = args[0];
    const str = T("string");
    if (target) {
      const tsz = () => this.sizeOrUnknown(target);
      switch (name) {
        case "matches":
        case "find":
        case "findAll":
          if (a0) {
            const strCost = factorR(addR(tsz(), [1, 1]), STRING_TRAVERSAL);
            const regexCost = factorR(this.sizeOrUnknown(a0), REGEX_LENGTH);
            const type = name === "matches" ? T("bool") : name === "find" ? str : T("list", str);
            return out(mulR(strCost, regexCost), type, name === "matches" ? undefined : [0, tsz()[1]]);
          }
          break;
        case "contains":
          if (a0)
            return out(
              mulR(factorR(tsz(), STRING_TRAVERSAL), factorR(this.sizeOrUnknown(a0), STRING_TRAVERSAL)),
              T("bool"),
            );
          break;
        case "startsWith":
        case "endsWith":
          if (a0) return out(factorR(this.sizeOrUnknown(a0), STRING_TRAVERSAL), T("bool"));
          break;
        case "format":
          return out(factorR(tsz(), STRING_TRAVERSAL), str);
        case "isSorted":
        case "sum":
        case "max":
        case "min":
        case "indexOf":
        case "lastIndexOf":
        case "includes": {
          const type =
            name === "isSorted" || name === "includes"
              ? T("bool")
              : name.endsWith("ndexOf")
                ? T("int")
                : (target.type.elem ?? DYN);
          if (target.type.k === "list") {
            let el: Range = [1, 1];
            const elType = target.type.elem;
            if (elType && (elType.k === "string" || elType.k === "bytes")) {
              const elemSize = this.sizeOrUnknown({
                cost: [0, 0],
                type: elType,
                ...(target.path ? { path: [...target.path, "@items"] } : {}),
              });
              el = addR(el, factorR(elemSize, STRING_TRAVERSAL));
            }
            return out(mulR(tsz(), el), type);
          }
          return out(factorR(tsz(), STRING_TRAVERSAL), type);
        }
        case "lowerAscii":
        case "upperAscii":
        case "substring":
        case "trim":
          return out(factorR(tsz(), STRING_TRAVERSAL), str, tsz());
        case "replace":
          if (args.length >= 2)
            return out(factorR(tsz(), 2 * STRING_TRAVERSAL), str, this.replaceSize(tsz(), args));
          break;
        case "split":
          return out(factorR(tsz(), 2 * STRING_TRAVERSAL), T("list", str), [0, tsz()[1]]);
        case "join": {
          const list = tsz();
          const elemType = target.type.elem ?? DYN;
          let size: Range = [0, 0];
          if (target.type.elem)
            size = mulR(
              list,
              this.sizeOrUnknown({
                cost: [0, 0],
                type: elemType,
                ...(target.path ? { path: [...target.path, "@items"] } : {}),
              }),
            );
          if (a0)
            size = addR(
              size,
              mulR(this.sizeOrUnknown(a0), [Math.max(0, list[0] - 1), Math.max(0, list[1] - 1)]),
            );
          return out(factorR(size, STRING_TRAVERSAL), str, size);
        }
      }
    } else if (a0) {
      switch (name) {
        case "url":
          return out(factorR(this.sizeOrUnknown(a0), STRING_TRAVERSAL), T("opaque"), this.sizeOrUnknown(a0));
        case "quantity":
        case "isQuantity":
        case "semver":
        case "isSemver":
        case "cidr":
        case "isIP":
        case "isCIDR":
        case "ip":
        case "isURL":
          return out(
            factorR(this.sizeOrUnknown(a0), STRING_TRAVERSAL),
            name.startsWith("is") ? T("bool") : T("opaque"),
          );
        case "size":
          return out(fixed(1), T("int"));
        case "int":
        case "uint":
        case "double":
        case "string":
        case "bytes":
        case "bool":
        case "timestamp":
        case "duration":
          return out(fixed(1), T(name as CelType["k"]));
      }
    }
    const resultType: CelType =
      name === "size"
        ? T("int")
        : ["hasValue", "isInteger", "isGreaterThan", "isLessThan", "matches", "contains"].includes(name)
          ? T("bool")
          : name === "value" || name === "orValue"
            ? (target?.type ?? DYN)
            : DYN;
    return out(fixed(1), resultType);
  }

  /** The k8s library's size of `s.replace(from, to)`: replacements × their size, plus what stays. */
  private replaceSize(sz: Range, args: Val[]): Range {
    const from = this.sizeOrUnknown(args[0] as Val);
    const to = this.sizeOrUnknown(args[1] as Val);
    // At one end: an empty needle surrounds every character; a replacement no longer than it keeps the length.
    const end = (len: number, needle: number, noGrowth: boolean): Range =>
      needle === 0 ? [len < MAXU ? len + 1 : len, len] : noGrowth ? [0, len] : [Math.ceil(len / needle), 0];
    const [countMax, keptMax] = end(sz[1], from[0], to[1] <= from[0]);
    const [countMin, keptMin] = end(sz[0], from[1], from[1] <= to[0]);
    return addR(mulR([countMin, countMax], to), [keptMin, keptMax]);
  }

  /** all, exists, exists_one, map, filter: cel-go's comprehension cost over the macro's expansion. */
  private macro(name: string, targetNode: ASTNode, argNodes: ASTNode[]): Val | undefined {
    const [first, second, third] = argNodes;
    if (first?.op !== "id" || !second) return undefined;
    const twoVars =
      third !== undefined &&
      second.op === "id" &&
      ["all", "exists", "existsOne", "exists_one"].includes(name);
    if (!["all", "exists", "exists_one", "existsOne", "map", "filter"].includes(name)) return undefined;
    const range = this.cost(targetNode);
    const count = this.sizeOrUnknown(range);
    const isList = range.type.k === "list";
    const elemType = range.type.elem ?? DYN;
    const vars: [string, Local][] = [];
    const at = (sub: string): string[] => [...(range.path ?? []), sub];
    if (twoVars) {
      vars.push([
        first.args,
        {
          path: at(isList ? "@indices" : "@keys"),
          type: isList ? T("int") : T("string"),
          ...(range.entry ? { size: range.entry.key } : {}),
        },
      ]);
      vars.push([
        second.args as string,
        {
          path: at(isList ? "@items" : "@values"),
          type: elemType,
          ...(range.entry ? { size: range.entry.val } : {}),
        },
      ]);
    } else {
      vars.push([
        first.args,
        isList
          ? { path: at("@items"), type: elemType, ...(range.entry ? { size: range.entry.val } : {}) }
          : { path: at("@keys"), type: T("string"), ...(range.entry ? { size: range.entry.key } : {}) },
      ]);
    }
    for (const [n, l] of vars) this.push(n, l);
    const bodyNodes = twoVars ? [third as ASTNode] : name === "map" && third ? [second, third] : [second];
    const bodies = bodyNodes.map((b) => this.cost(b));
    for (const [n] of vars) this.pop(n);
    const body = bodies[0] as Val;
    // Cost of the expansion's pieces: init, loop condition, step and result (see cel-go's parser macros).
    let init: Range;
    let cond: Range;
    let step: Range;
    let result: Range;
    let type: CelType = T("bool");
    let size: Range | undefined;
    switch (name) {
      case "all":
        init = [0, 0];
        cond = [2, 2];
        step = [1, add(1, body.cost[1])];
        result = [1, 1];
        break;
      case "exists":
        init = [0, 0];
        cond = [3, 3];
        step = [1, add(1, body.cost[1])];
        result = [1, 1];
        break;
      case "exists_one":
      case "existsOne":
        init = [0, 0];
        cond = [0, 0];
        step = addR(body.cost, [1, 2]);
        result = [2, 2];
        break;
      case "map": {
        init = [10, 10];
        cond = [0, 0];
        const fn = (bodies[bodies.length - 1] as Val).cost;
        const append = addR(fixed(12), fn);
        step = bodies.length === 2 ? addR(body.cost, unionR(append, [1, 1])) : append;
        result = [1, 1];
        type = T("list", (bodies[bodies.length - 1] as Val).type);
        size = count;
        break;
      }
      default:
        init = [10, 10];
        cond = [0, 0];
        step = addR(body.cost, unionR(fixed(13), [1, 1]));
        result = [1, 1];
        type = range.type;
        size = count;
    }
    const loop = mulR(count, addR(step, cond));
    return {
      cost: addR(addR(addR(range.cost, init), result), loop),
      type,
      ...(size ? { size } : {}),
    };
  }
}

/** One rule's estimate: its cost per evaluation, how many times it may run, and the product. */
export interface RuleCost {
  /** Schema path of the node carrying the rule ("" for the root). */
  where: string;
  schema: JSONSchemaProps;
  index: number;
  rule: string;
  cost: number;
  cardinality: number;
  total: number;
  /** Bounds that are missing, from the rule's own reads and the lists/maps above it. */
  missingBounds: string[];
  /** The messageExpression's cost per evaluation (the API server holds it to the per-rule budget alone). */
  messageCost?: number;
}

/** A version's total as the API server sums it: each rule times its evaluations, plus each messageExpression once. */
export function schemaCost(costs: RuleCost[]): number {
  return costs.reduce((sum, r) => add(add(sum, r.total), r.messageCost ?? 0), 0);
}

/** Every rule of a version's schema with its estimated cost, in schema order. */
export function celRuleCosts(root: JSONSchemaProps): RuleCost[] {
  const out: RuleCost[] = [];
  const visit = (
    s: JSONSchemaProps,
    where: string,
    isRoot: boolean,
    cardinality: number | undefined,
    unboundedAbove: string[],
  ) => {
    const rules = s["x-kubernetes-validations"] ?? [];
    if (rules.length > 0) {
      const decl = declOf(s, isRoot || !!s["x-kubernetes-embedded-resource"], where);
      if (decl) {
        const card = cardinality ?? Math.floor(MAX_REQUEST_BYTES / (decl.minSize + 1));
        rules.forEach((r, index) => {
          if (!r.rule?.trim()) return;
          const estimator = new CostEstimator(decl);
          let cost: number;
          try {
            cost = estimator.estimate(r.rule)[1];
          } catch {
            return; // a rule that does not parse is the CEL check's to report
          }
          let messageCost: number | undefined;
          if (r.messageExpression?.trim()) {
            try {
              messageCost = new CostEstimator(decl).estimate(r.messageExpression)[1];
            } catch {
              // likewise the CEL check's
            }
          }
          out.push({
            ...(messageCost === undefined ? {} : { messageCost }),
            where,
            schema: s,
            index,
            rule: r.rule,
            cost,
            cardinality: card,
            total: mul(cost, card),
            missingBounds: [...new Set([...unboundedAbove, ...estimator.unbounded])],
          });
        });
      }
    }
    // The API server multiplies by the parent's bound: maxItems of a list, maxProperties of a map.
    const childCard = (bound: number | undefined, what: string): [number | undefined, string[]] => {
      if (cardinality === undefined) return [undefined, unboundedAbove];
      if (bound === undefined) return [undefined, [...unboundedAbove, what]];
      return [mul(cardinality, nonNegative(bound)), unboundedAbove];
    };
    const path = (name: string) => (where ? `${where}.${name}` : name);
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      const ap = s.additionalProperties;
      const [c, u] =
        ap && typeof ap === "object"
          ? childCard(s.maxProperties, `maxProperties on ${where}`)
          : [cardinality, unboundedAbove];
      visit(prop, path(name), false, c, u);
    }
    if (s.items && !Array.isArray(s.items)) {
      const [c, u] = childCard(s.maxItems, `maxItems on ${where || "the root"}`);
      visit(s.items as JSONSchemaProps, `${where}[*]`, false, c, u);
    }
    const ap = s.additionalProperties;
    if (ap && typeof ap === "object") {
      const [c, u] = childCard(s.maxProperties, `maxProperties on ${where || "the root"}`);
      visit(ap, `${where}[*]`, false, c, u);
    }
  };
  visit(root, "", true, 1, []);
  return out;
}
