import type { JSONSchemaProps, ValidationRule } from "@kbts/runtime";
import { KbtsError } from "../errors.js";
import { MAX_TYPE_DEPTH } from "../loading/bounds.js";
import { resolveTypeName } from "../loading/type-names.js";
import type { MarkerCollector } from "../markers/collect.js";
import type { MarkerSet } from "../markers/registry.js";
import { ts } from "../ts/typescript.js";
import { nodeWhere } from "../ts/where.js";
import { applySchemaMarkers } from "./apply.js";
import { FlattenError, flattenNamed } from "./flatten.js";
import { BASIC_TYPES, FLOAT_TYPES, isKnownType, knownTypeSchema, TYPE_META } from "./known.js";

/**
 * TypeScript types → OpenAPI v3 schemas, as controller-gen maps the Go twin. Schemas are built with
 * references to named types (user interfaces, aliases, enums and known Kubernetes types), then
 * flattened: a field of named type gets the type's schema with the field's own markers merged in.
 * The walker only looks markers up; every marker applies itself (src/markers).
 */
export interface WalkerOptions {
  root: string;
  allowDangerousTypes: boolean;
  /** Package default for fields without `?` or a marker: controller-gen's `+kubebuilder:validation:Optional`. */
  packageOptional: (file: ts.SourceFile) => boolean;
}

/** A reference to a named type, kept on the referring schema until flattening. */
const REF = Symbol("ref");
type RefSchema = JSONSchemaProps & { [REF]?: string };

interface Named {
  raw?: JSONSchemaProps;
  flat?: JSONSchemaProps;
  building: boolean;
}

export class SchemaWalker {
  readonly errors: KbtsError[] = [];
  private readonly named = new Map<string, Named>();
  private readonly declKeys = new Map<ts.Node, string>();
  /** Object types being walked, outermost first: bounded by MAX_TYPE_DEPTH. */
  private depth = 0;

  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly collector: MarkerCollector,
    private readonly opts: WalkerOptions,
  ) {}

  /** The flattened schema of a root kind: TypeMeta fields, `metadata: {type: object}`, the rest. */
  kindSchema(decl: ts.InterfaceDeclaration | ts.TypeAliasDeclaration): JSONSchemaProps {
    const key = this.keyOf(decl);
    this.rawNamed(key, decl, decl);
    const schema = this.flatNamed(key);
    const props = schema.properties ?? {};
    for (const k of ["apiVersion", "kind"] as const) if (k in props) props[k] = structuredClone(TYPE_META[k]);
    if ("metadata" in props) props.metadata = { type: "object" };
    if (schema.required) {
      schema.required = schema.required.filter((r) => r !== "apiVersion" && r !== "kind" && r !== "metadata");
      if (schema.required.length === 0) delete schema.required;
    }
    return schema;
  }

  /** The property names (JSON) and their type nodes' resolved schemas: used by path checks. */
  flatSchemaOf(decl: ts.Declaration): JSONSchemaProps | undefined {
    const key = this.declKeys.get(decl);
    return key ? this.named.get(key)?.flat : undefined;
  }

  // ---- errors -------------------------------------------------------------------------------

  private where(node: ts.Node): string {
    return nodeWhere(this.opts.root, ts.isPropertySignature(node) ? node.name : node);
  }

  private fail(node: ts.Node, message: string, fix?: string): JSONSchemaProps {
    this.errors.push(new KbtsError(message, { where: this.where(node), ...(fix ? { fix } : {}) }));
    return {};
  }

  // ---- named types ---------------------------------------------------------------------------

  private keyOf(decl: ts.Node): string {
    let key = this.declKeys.get(decl);
    if (!key) {
      const name = (decl as ts.NamedDeclaration).name?.getText() ?? "anonymous";
      key = `${decl.getSourceFile().fileName}#${name}@${decl.pos}`;
      this.declKeys.set(decl, key);
    }
    return key;
  }

  /** Builds (once) the unflattened schema of a user-declared named type. */
  private rawNamed(key: string, decl: ts.Declaration, from: ts.Node): void {
    const entry = this.named.get(key);
    if (entry) {
      if (entry.building) {
        const name = (decl as ts.NamedDeclaration).name?.getText() ?? "type";
        this.fail(
          from,
          `recursive type ${name} is not supported in a CRD schema`,
          "break the cycle, e.g. with a name reference or a preserve-unknown-fields field",
        );
      }
      return;
    }
    const n: Named = { building: true };
    this.named.set(key, n);
    const docs = this.collector.forNode(decl);
    let schema: JSONSchemaProps;
    if (ts.isInterfaceDeclaration(decl)) {
      schema = this.objectSchema(
        this.checker.getTypeAtLocation(decl.name),
        decl,
        decl.name.text,
        docs.markers,
      );
    } else if (ts.isTypeAliasDeclaration(decl)) {
      schema = this.typeNodeSchema(decl.type, decl, decl.name.text, docs.markers);
    } else if (ts.isEnumDeclaration(decl)) {
      schema = this.enumSchema(decl);
    } else if (ts.isClassDeclaration(decl)) {
      schema = this.fail(
        from,
        `class ${decl.name?.text ?? ""} is not supported in a CRD schema (class instances do not serialize as JSON)`,
        "use an interface",
      );
    } else {
      schema = this.fail(from, `unsupported declaration ${ts.SyntaxKind[decl.kind]}`);
    }
    // controller-gen returns a marshaler's schema before it adds the type's description.
    const marshaler = this.marshalerKind(decl, docs.markers);
    if (docs.doc && !marshaler) schema.description = docs.doc;
    if (ts.isInterfaceDeclaration(decl)) this.applyBaseMarkers(decl, schema, new Set());
    applySchemaMarkers(schema, docs.markers, this.errors);
    if (marshaler === "text" && schema.type !== "string") {
      this.fail(
        decl,
        `${(decl as ts.NamedDeclaration).name?.getText() ?? "type"} is a TextMarshaler but its schema type is ${schema.type ?? "none"}, not string`,
        "remove the +kubebuilder:validation:Type marker (text marshals as a string), or use JSONMarshaler",
      );
    }
    n.raw = schema;
    n.building = false;
  }

  /**
   * An alias of JSONMarshaler<T> with a Type marker, or of TextMarshaler: a type that marshals itself,
   * whose schema is only its markers (controller-gen's infoToSchema).
   */
  private marshalerKind(decl: ts.Declaration, markers: MarkerSet): "json" | "text" | undefined {
    if (!ts.isTypeAliasDeclaration(decl) || !ts.isTypeReferenceNode(decl.type)) return undefined;
    const target = resolveTypeName(this.checker, decl.type.typeName);
    if (target.kind !== "runtime") return undefined;
    if (target.name === "TextMarshaler") return "text";
    if (target.name === "JSONMarshaler" && markers.all.some((m) => m.def.setsType)) return "json";
    return undefined;
  }

  /**
   * `extends` is Go embedding: the bases' type-level markers (rules, ...) apply to the embedding type,
   * before its own (controller-gen flattens the embedded schema in first).
   */
  private applyBaseMarkers(decl: ts.InterfaceDeclaration, schema: JSONSchemaProps, seen: Set<ts.Node>): void {
    for (const clause of decl.heritageClauses ?? []) {
      for (const t of clause.types) {
        const symbol = this.checker.getSymbolAtLocation(t.expression);
        const target =
          symbol && symbol.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(symbol) : symbol;
        const base = target?.declarations?.find(ts.isInterfaceDeclaration);
        if (!base || seen.has(base)) continue;
        seen.add(base);
        this.applyBaseMarkers(base, schema, seen);
        applySchemaMarkers(schema, this.collector.forNode(base).markers, this.errors);
      }
    }
  }

  private flatNamed(key: string): JSONSchemaProps {
    const n = this.named.get(key);
    if (!n?.raw) return {};
    if (!n.flat) {
      n.flat = {}; // recursion guard; recursion is reported while building
      n.flat = this.flatten(n.raw);
    }
    return structuredClone(n.flat);
  }

  private flatten(schema: RefSchema): JSONSchemaProps {
    let out: JSONSchemaProps = { ...schema };
    const ref = schema[REF];
    if (ref) {
      // Both return a copy of their own, which flattenNamed may take apart.
      const target = ref.startsWith("known:") ? (knownTypeSchema(ref.slice(6)) ?? {}) : this.flatNamed(ref);
      try {
        out = flattenNamed(target, out);
      } catch (err) {
        if (err instanceof FlattenError) this.errors.push(new KbtsError(err.message));
        else throw err;
      }
    }
    if (out.properties) {
      const props: Record<string, JSONSchemaProps> = {};
      for (const [k, v] of Object.entries(out.properties)) props[k] = this.flatten(v);
      out.properties = props;
    }
    if (out.items) out.items = this.flatten(out.items);
    if (out.additionalProperties && typeof out.additionalProperties === "object") {
      out.additionalProperties = this.flatten(out.additionalProperties);
    }
    return out;
  }

  /** A stub that refers to a named type; field markers apply to it, flattening merges it in. */
  private ref(key: string, typeAndFormat: JSONSchemaProps = {}): RefSchema {
    const s: RefSchema = { ...typeAndFormat };
    Object.defineProperty(s, REF, { value: key, enumerable: false });
    return s;
  }

  // ---- type nodes ----------------------------------------------------------------------------

  /**
   * The schema of a type as written. `owner` names the field or type for messages; `markers` are
   * the markers of the field or alias (checked for preserve-unknown-fields on any/unknown).
   */
  private typeNodeSchema(node: ts.TypeNode, at: ts.Node, owner: string, markers: MarkerSet): JSONSchemaProps {
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: "string" };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: "boolean" };
      case ts.SyntaxKind.NumberKeyword:
        return this.float(at, owner, "number");
      case ts.SyntaxKind.AnyKeyword:
      case ts.SyntaxKind.UnknownKeyword:
      case ts.SyntaxKind.ObjectKeyword: {
        const what = node.getText();
        const preserve = markers.all.some((m) => m.def.keepsUnknownFields || m.def.schemaless);
        if (preserve) return {};
        return this.fail(
          at,
          `${owner} has type ${what}, which has no schema`,
          "give it a concrete type, or mark it // +kubebuilder:pruning:PreserveUnknownFields (any JSON is then kept)",
        );
      }
      case ts.SyntaxKind.ParenthesizedType:
        return this.typeNodeSchema((node as ts.ParenthesizedTypeNode).type, at, owner, markers);
      case ts.SyntaxKind.TypeOperator: {
        const op = node as ts.TypeOperatorNode;
        if (op.operator === ts.SyntaxKind.ReadonlyKeyword)
          return this.typeNodeSchema(op.type, at, owner, markers);
        return this.fail(at, `${owner}: type operator ${node.getText()} is not supported`);
      }
      case ts.SyntaxKind.ArrayType:
        return this.arraySchema((node as ts.ArrayTypeNode).elementType, at, owner);
      case ts.SyntaxKind.TupleType: {
        // Go's fixed-size array [N]T: controller-gen writes a plain array, without length bounds.
        const elements = (node as ts.TupleTypeNode).elements;
        const first = elements[0];
        if (
          first &&
          !ts.isNamedTupleMember(first) &&
          !ts.isRestTypeNode(first) &&
          !ts.isOptionalTypeNode(first)
        ) {
          if (elements.every((e) => e.kind === first.kind && e.getText() === first.getText()))
            return this.arraySchema(first, at, owner);
        }
        return this.fail(
          at,
          `${owner} is a tuple (${node.getText()}), which a CRD schema cannot express`,
          "use an array of one type (a tuple of one type, [T, T, T], is Go's fixed-size array) or an object",
        );
      }
      case ts.SyntaxKind.FunctionType:
      case ts.SyntaxKind.ConstructorType:
        return this.fail(
          at,
          `${owner} is a function, which cannot be part of a Kubernetes object`,
          "remove it from the API type",
        );
      case ts.SyntaxKind.LiteralType:
        return this.literalUnion([node as ts.LiteralTypeNode], at, owner);
      case ts.SyntaxKind.UnionType:
        return this.unionSchema(node as ts.UnionTypeNode, at, owner, markers);
      case ts.SyntaxKind.TypeReference:
        return this.referenceSchema(node as ts.TypeReferenceNode, at, owner, markers);
      case ts.SyntaxKind.TypeLiteral:
      case ts.SyntaxKind.MappedType:
      case ts.SyntaxKind.IntersectionType:
      case ts.SyntaxKind.IndexedAccessType:
      case ts.SyntaxKind.ConditionalType:
        return this.objectSchema(this.checker.getTypeFromTypeNode(node), at, owner);
      default:
        return this.fail(at, `${owner}: type ${node.getText()} is not supported in a CRD schema`);
    }
  }

  private float(at: ts.Node, owner: string, what: string): JSONSchemaProps {
    if (this.opts.allowDangerousTypes) return { type: "number" };
    return this.fail(
      at,
      `${owner} is a float (${what}), the usage of which is highly discouraged, as support for them varies across languages`,
      "use int32/int64 or a string (a Quantity for amounts), or re-run with --allow-dangerous-types",
    );
  }

  private arraySchema(element: ts.TypeNode, at: ts.Node, owner: string): JSONSchemaProps {
    const items = this.typeNodeSchema(element, at, owner, EMPTY_MARKERS);
    return { type: "array", items };
  }

  private literalUnion(literals: ts.LiteralTypeNode[], at: ts.Node, owner: string): JSONSchemaProps {
    const values: unknown[] = [];
    let type: string | undefined;
    for (const l of literals) {
      const lit = l.literal;
      let v: unknown;
      let ty: string;
      if (ts.isStringLiteral(lit) || ts.isNoSubstitutionTemplateLiteral(lit)) {
        v = lit.text;
        ty = "string";
      } else if (ts.isNumericLiteral(lit)) {
        v = Number(lit.text);
        ty = Number.isInteger(v) ? "integer" : "number";
      } else if (ts.isPrefixUnaryExpression(lit) && ts.isNumericLiteral(lit.operand)) {
        v = -Number(lit.operand.text);
        ty = "integer";
      } else if (lit.kind === ts.SyntaxKind.TrueKeyword || lit.kind === ts.SyntaxKind.FalseKeyword) {
        v = lit.kind === ts.SyntaxKind.TrueKeyword;
        ty = "boolean";
      } else {
        return this.fail(at, `${owner}: literal ${l.getText()} is not supported`);
      }
      if (type && type !== ty)
        return this.fail(at, `${owner} mixes literal types (${type} and ${ty}) in one union`);
      type = ty;
      values.push(v);
    }
    return { type, enum: values };
  }

  private unionSchema(
    node: ts.UnionTypeNode,
    at: ts.Node,
    owner: string,
    markers: MarkerSet,
  ): JSONSchemaProps {
    let nullable = false;
    const rest: ts.TypeNode[] = [];
    for (const t of node.types) {
      if (t.kind === ts.SyntaxKind.UndefinedKeyword) continue;
      if (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword) {
        nullable = true;
        continue;
      }
      rest.push(t);
    }
    let schema: JSONSchemaProps;
    if (rest.length === 1) schema = this.typeNodeSchema(rest[0] as ts.TypeNode, at, owner, markers);
    else if (rest.length > 0 && rest.every((t) => ts.isLiteralTypeNode(t))) {
      schema = this.literalUnion(rest as ts.LiteralTypeNode[], at, owner);
    } else if (
      rest.length === 2 &&
      rest.every((t) => t.kind === ts.SyntaxKind.TrueKeyword || ts.isLiteralTypeNode(t))
    ) {
      schema = { type: "boolean" };
    } else {
      return this.fail(
        at,
        `${owner} is a union (${node.getText()}); only unions of literals and T | null are supported`,
        "use one type, a string-literal union (an enum) or IntOrString from @kbts/runtime",
      );
    }
    if (nullable) schema.nullable = true;
    return schema;
  }

  private referenceSchema(
    node: ts.TypeReferenceNode,
    at: ts.Node,
    owner: string,
    markers: MarkerSet,
  ): JSONSchemaProps {
    const target = resolveTypeName(this.checker, node.typeName);
    const args = node.typeArguments ?? [];
    switch (target.kind) {
      case "runtime": {
        if (target.name === "TextMarshaler") return { type: "string" };
        if (target.name === "JSONMarshaler") {
          // controller-gen: a json.Marshaler with a Type marker is only its markers; without one,
          // the Go type is walked.
          if (markers.all.some((m) => m.def.setsType)) return {};
          const inner = args[0];
          if (inner) return this.typeNodeSchema(inner, at, owner, markers);
          return this.fail(
            at,
            `${owner} is a JSONMarshaler without a +kubebuilder:validation:Type marker, so it has no schema`,
            "say its JSON type with // +kubebuilder:validation:Type=<type> on the type, or give JSONMarshaler the value's type",
          );
        }
        const basic = BASIC_TYPES[target.name];
        if (basic) return { ...basic };
        if (FLOAT_TYPES.has(target.name)) return this.float(at, owner, target.name);
        if (isKnownType(target.name)) return this.ref(`known:${target.name}`);
        return this.fail(
          at,
          `${owner}: ${target.name} from @kbts/runtime has no known CRD schema`,
          "use a type kbts knows (see docs) or declare your own",
        );
      }
      case "lib":
        return this.libSchema(target.name, node, args, at, owner);
      case "decl": {
        const decl = target.decl;
        if (ts.isTypeParameterDeclaration(decl))
          return this.fail(at, `${owner}: generic type parameter ${target.name} is not supported`);
        if (ts.isClassDeclaration(decl)) {
          return this.fail(
            at,
            `${owner} is an instance of class ${target.name}, which does not serialize as JSON`,
            "use an interface or a string",
          );
        }
        if (args.length > 0) return this.objectSchema(this.checker.getTypeFromTypeNode(node), at, owner);
        if (ts.isEnumMember(decl)) return this.literalFromEnumMember(decl, at, owner);
        if (
          !ts.isInterfaceDeclaration(decl) &&
          !ts.isTypeAliasDeclaration(decl) &&
          !ts.isEnumDeclaration(decl)
        ) {
          return this.fail(at, `${owner}: ${target.name} is not a type kbts can map`);
        }
        const key = this.keyOf(decl);
        this.rawNamed(key, decl, at);
        const raw = this.named.get(key)?.raw ?? {};
        // A named basic/array/map type keeps its type (and format) on the reference, as controller-gen.
        const stub: JSONSchemaProps = {};
        if (raw.type && raw.type !== "object") stub.type = raw.type;
        else if (raw.type === "object" && raw.additionalProperties !== undefined && !raw.properties)
          stub.type = "object";
        if (raw.format && raw.type !== "array") stub.format = raw.format;
        if (stub.type === "array") delete stub.format;
        return this.ref(key, stub);
      }
      case "unresolved":
        return this.fail(
          at,
          `${owner}: cannot resolve type ${target.name}`,
          "import it, or check the import path",
        );
    }
  }

  private libSchema(
    name: string,
    node: ts.TypeReferenceNode,
    args: readonly ts.TypeNode[],
    at: ts.Node,
    owner: string,
  ) {
    switch (name) {
      case "Array":
      case "ReadonlyArray":
        return this.arraySchema(args[0] ?? node, at, owner);
      case "Record": {
        const key = args[0];
        if (key && !this.isStringKey(key)) {
          return this.fail(
            at,
            `${owner}: map keys must be strings, not ${key.getText()}`,
            "key the map by string or a named string type (an alias of string, a string-literal union, a string enum)",
          );
        }
        return {
          type: "object",
          additionalProperties: this.typeNodeSchema(args[1] as ts.TypeNode, at, owner, EMPTY_MARKERS),
        };
      }
      case "Uint8Array":
        return { type: "string", format: "byte" };
      case "Partial":
      case "Required":
      case "Readonly":
      case "Pick":
      case "Omit":
        return this.objectSchema(this.checker.getTypeFromTypeNode(node), at, owner);
      default:
        return this.fail(
          at,
          `${owner} is a ${name}, which is not supported in a CRD schema (class instances and library types do not serialize as JSON)`,
          "use string, int32/int64, boolean, arrays, records or interfaces",
        );
    }
  }

  /**
   * A map key serializes as a string: string itself or any named string type (Go's
   * `map[ResourceName]Quantity`, or a key type that is an encoding.TextMarshaler, ported as a string
   * alias). The key's own values (a union's, an enum's) constrain nothing, as in controller-gen.
   */
  private isStringKey(key: ts.TypeNode, depth = 0): boolean {
    // @kbts/runtime's types are known by name (its sources may not be loaded): follow aliases to one.
    if (ts.isTypeReferenceNode(key) && depth < 10) {
      const target = resolveTypeName(this.checker, key.typeName);
      if (target.kind === "runtime") return target.name === "TextMarshaler";
      if (target.kind === "decl" && ts.isTypeAliasDeclaration(target.decl))
        return this.isStringKey(target.decl.type, depth + 1);
    }
    const type = this.checker.getTypeFromTypeNode(key);
    const parts = type.isUnion() ? type.types : [type];
    return parts.every((p) => (p.flags & ts.TypeFlags.StringLike) !== 0);
  }

  private enumSchema(decl: ts.EnumDeclaration): JSONSchemaProps {
    const values: unknown[] = [];
    let type = "string";
    for (const m of decl.members) {
      const v = this.checker.getConstantValue(m);
      if (v === undefined) return this.fail(m, `enum member ${m.name.getText()} has no constant value`);
      if (typeof v === "number") type = "integer";
      values.push(v);
    }
    return { type, enum: values };
  }

  private literalFromEnumMember(decl: ts.EnumMember, at: ts.Node, owner: string): JSONSchemaProps {
    const v = this.checker.getConstantValue(decl);
    if (v === undefined) return this.fail(at, `${owner}: enum member without a constant value`);
    return { type: typeof v === "number" ? "integer" : "string", enum: [v] };
  }

  // ---- objects -------------------------------------------------------------------------------

  /** An object type (interface, type literal, utility type): properties, required, index signature. */
  private objectSchema(
    type: ts.Type,
    at: ts.Node,
    owner: string,
    typeMarkers: MarkerSet = EMPTY_MARKERS,
  ): JSONSchemaProps {
    // Object types nest by recursion here; past the bound, a located error instead of a stack overflow.
    if (this.depth >= MAX_TYPE_DEPTH) {
      return this.fail(
        at,
        `${owner}: object types nest deeper than ${MAX_TYPE_DEPTH} levels`,
        `flatten the type (at most ${MAX_TYPE_DEPTH} nested object levels), or end it with a preserve-unknown-fields field`,
      );
    }
    this.depth += 1;
    try {
      return this.objectSchemaOf(type, at, owner, typeMarkers);
    } finally {
      this.depth -= 1;
    }
  }

  private objectSchemaOf(type: ts.Type, at: ts.Node, owner: string, typeMarkers: MarkerSet): JSONSchemaProps {
    const checker = this.checker;
    if (type.getCallSignatures().length > 0)
      return this.fail(at, `${owner} is a function, which cannot be part of a Kubernetes object`);
    const props = checker.getPropertiesOfType(type);
    const index = checker.getIndexInfosOfType(type);
    if (index.length > 0 && props.length === 0) {
      const info = index[0] as ts.IndexInfo;
      const valueNode = info.declaration?.type;
      const items = valueNode
        ? this.typeNodeSchema(valueNode, info.declaration ?? at, owner, EMPTY_MARKERS)
        : {};
      return { type: "object", additionalProperties: items };
    }
    if (index.length > 0)
      return this.fail(
        at,
        `${owner} mixes named properties and an index signature, which a CRD schema cannot express`,
      );

    const schema: JSONSchemaProps = { type: "object", properties: {} };
    const required: string[] = [];
    const oneOf = new Set<string>();
    for (const m of typeMarkers.all) for (const f of m.def.oneOfFields?.(m.value) ?? []) oneOf.add(f);
    const parentRules: { field: string; rule: ValidationRule }[] = [];
    const sfOptional = this.opts.packageOptional(at.getSourceFile());

    for (const prop of props) {
      const decl = (prop.valueDeclaration ?? prop.declarations?.[0]) as ts.Declaration | undefined;
      const name = prop.getName();
      const label = `${owner}.${name}`;
      if (!decl) {
        this.fail(at, `${label}: property without a declaration`);
        continue;
      }
      if (ts.isMethodSignature(decl) || ts.isMethodDeclaration(decl)) {
        this.fail(
          decl,
          `${label} is a function, which cannot be part of a Kubernetes object`,
          "remove it from the API type",
        );
        continue;
      }
      if (!(ts.isPropertySignature(decl) || ts.isPropertyDeclaration(decl)) || !decl.type) {
        this.fail(decl, `${label} has no type annotation`, "write the property's type explicitly");
        continue;
      }
      const docs = this.collector.forNode(decl);
      const markers = docs.markers;
      const optionalMark = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      let mode: "optional" | "required" | undefined;
      let rank = Number.POSITIVE_INFINITY;
      for (const m of markers.all) {
        const r = m.def.requiredness;
        if (r && r.rank < rank) {
          rank = r.rank;
          mode = r.mode;
        }
      }
      const isRequired = mode ? mode === "required" : !sfOptional && !optionalMark;
      if (isRequired) {
        if (oneOf.has(name)) {
          this.fail(
            decl,
            `field ${name} is part of a OneOf constraint and ${mode ? "cannot be marked as required" : "must be optional (?)"}`,
          );
          continue;
        }
        required.push(name);
      }
      let field: JSONSchemaProps;
      if (markers.all.some((m) => m.def.schemaless)) field = {};
      else field = this.typeNodeSchema(decl.type, decl, label, markers);
      const withDoc: JSONSchemaProps = { ...field };
      Object.defineProperty(withDoc, REF, { value: (field as RefSchema)[REF], enumerable: false });
      if (docs.doc) withDoc.description = docs.doc;
      else delete withDoc.description;
      applySchemaMarkers(withDoc, markers, this.errors);
      for (const m of markers.all) {
        const rule = m.def.parentRule?.(name);
        if (rule && !parentRules.some((p) => p.field === name && p.rule.rule === rule.rule))
          parentRules.push({ field: name, rule });
      }
      (schema.properties as Record<string, JSONSchemaProps>)[name] = withDoc;
    }
    if (required.length > 0) schema.required = required.sort();
    for (const { field, rule } of parentRules) {
      if (required.includes(field)) continue;
      schema["x-kubernetes-validations"] = [...(schema["x-kubernetes-validations"] ?? []), rule];
    }
    return schema;
  }
}

const EMPTY_MARKERS: MarkerSet = {
  all: [],
  has: () => false,
  get: () => undefined,
  list: () => [],
} as unknown as MarkerSet;
