import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Project, ts } from "ts-morph";
import { KBTS_LIB, KBTS_LIB_PATH } from "../loading/minimal-lib.js";
import { OPTIONS } from "../loading/program.js";
import { nodeWhere } from "../ts/where.js";

/**
 * What controller code does through @kbts/runtime, found with the type checker: each call whose
 * callee is declared by the runtime (client, cache, builder, event recorder, owner references,
 * finalizers, lease lock) becomes the permissions it needs, with the kind its descriptor names.
 * A call whose kind cannot be followed to a descriptor is kept as unresolved, never dropped.
 */

/** One permission a call needs: `resource` is the plural, or `<plural>/<subresource>`. */
export interface Permission {
  group: string;
  resource: string;
  verb: string;
}

/** A call that needs permissions, at file:line:col (relative to the project root). */
export interface Usage extends Permission {
  where: string;
  /** The call as a reader would name it: `client.status().update(GPUBudgetKind)`. */
  call: string;
}

/** A runtime call whose kind (or subresource) could not be followed statically. */
export interface Unresolved {
  where: string;
  call: string;
  reason: string;
}

export interface UsageScan {
  usages: Usage[];
  unresolved: Unresolved[];
}

interface KindRef {
  group: string;
  plural: string;
  /** The name the report uses: the descriptor's identifier. */
  name: string;
}

/** Reads served by the informer cache start an informer: list and watch, and get (Kubebuilder's triple). */
const CACHED_READ = ["get", "list", "watch"];

/**
 * The runtime's methods and functions that need permissions, by declaring interface (or module
 * function) and name. `kindArg` is the argument holding the Kind descriptor; `verbs` what the call
 * needs (`cached` expands to CACHED_READ unless the receiver is an uncached Reader).
 */
interface Rule {
  verbs: string[] | "cached-read";
  kindArg?: number;
  /** Subresource writes: the verb is the method name, the resource `<plural>/<sub>`. */
  subresource?: true;
  /** The permission is on `<plural>/finalizers` of the object's (or owner's) kind, found by its type. */
  finalizersOfArg?: number;
  /** setOwnerReference blocks the owner's deletion only when its options say blockOwnerDeletion: true. */
  onlyIfBlocking?: true;
  /** Fixed permissions, no kind involved (events, leases). */
  fixed?: Permission[];
}

const EVENTS: Permission[] = [
  { group: "", resource: "events", verb: "create" },
  { group: "", resource: "events", verb: "patch" },
];
const LEASES: Permission[] = ["get", "create", "update"].map((verb) => ({
  group: "coordination.k8s.io",
  resource: "leases",
  verb,
}));

const RULES: Record<string, Rule> = {
  "Reader.get": { verbs: "cached-read", kindArg: 0 },
  "Reader.list": { verbs: "cached-read", kindArg: 0 },
  "Writer.create": { verbs: ["create"], kindArg: 0 },
  "Writer.update": { verbs: ["update"], kindArg: 0 },
  "Writer.patch": { verbs: ["patch"], kindArg: 0 },
  "Writer.delete": { verbs: ["delete"], kindArg: 0 },
  // Server-side apply is a PATCH that creates an absent object, which the API server authorizes as create.
  "Writer.apply": { verbs: ["patch", "create"], kindArg: 0 },
  "SubResourceClient.get": { verbs: ["get"], kindArg: 0, subresource: true },
  "SubResourceClient.update": { verbs: ["update"], kindArg: 0, subresource: true },
  "SubResourceClient.patch": { verbs: ["patch"], kindArg: 0, subresource: true },
  "SubResourceClientWithCreate.create": { verbs: ["create"], kindArg: 0, subresource: true },
  "Cache.getInformer": { verbs: CACHED_READ, kindArg: 0 },
  "Cache.indexField": { verbs: CACHED_READ, kindArg: 0 },
  "Builder.for": { verbs: CACHED_READ, kindArg: 0 },
  "Builder.owns": { verbs: CACHED_READ, kindArg: 0 },
  "Builder.watches": { verbs: CACHED_READ, kindArg: 0 },
  "EventRecorder.event": { verbs: [], fixed: EVENTS },
  "FlushableEventRecorder.eventf": { verbs: [], fixed: EVENTS },
  createOrUpdate: { verbs: ["get", "list", "watch", "create", "update"], kindArg: 1 },
  createOrPatch: { verbs: ["get", "list", "watch", "create", "patch"], kindArg: 1 },
  leaseLock: { verbs: [], fixed: LEASES },
  // Kubebuilder's `<plural>/finalizers` update rule: setting an owner reference that blocks the owner's
  // deletion (setControllerReference does) needs update on the OWNER's finalizers subresource under
  // OwnerReferencesPermissionEnforcement; adding a finalizer takes it on the object's own kind.
  setControllerReference: { verbs: ["update"], finalizersOfArg: 0 },
  setOwnerReference: { verbs: ["update"], finalizersOfArg: 0, onlyIfBlocking: true },
  addFinalizer: { verbs: ["update"], finalizersOfArg: 0 },
};

/** createOrPatch also patches status when it changed (a second patch on the subresource). */
const STATUS_PATCH_OF = new Set(["createOrPatch"]);

/** The @kbts/runtime a project compiles against: its own install, else the one this kbts ships with. */
function runtimeDir(root: string): string {
  const own = join(root, "node_modules", "@kbts", "runtime");
  if (existsSync(join(own, "dist", "index.d.ts"))) return own;
  const entry = createRequire(import.meta.url).resolve("@kbts/runtime");
  return dirname(dirname(entry));
}

/**
 * The built-in kinds (Pod, Deployment, Lease, ...) by export name, from the runtime's own list
 * (api/kinds.ts builtinKinds, each exported under its kind's name), as the project compiles against it.
 */
async function builtinKinds(dir: string): Promise<Map<string, KindRef>> {
  const mod = (await import(pathToFileURL(join(dir, "dist", "api", "kinds.js")).href)) as {
    builtinKinds: typeof import("@kbts/runtime").builtinKinds;
  };
  return new Map(mod.builtinKinds.map((k) => [k.kind, { group: k.group, plural: k.plural, name: k.kind }]));
}

/**
 * Scans `files` (absolute paths) for runtime calls. The program resolves relative imports and
 * @kbts/runtime (to its declarations); other packages stay unresolved, which is all a call needs.
 */
export async function scanUsages(root: string, files: string[]): Promise<UsageScan> {
  const dir = runtimeDir(root);
  const builtins = await builtinKinds(dir);
  const runtimeEntry = (spec: string): string | undefined => {
    if (spec === "@kbts/runtime") return join(dir, "dist", "index.d.ts");
    const sub = /^@kbts\/runtime\/(.+)$/.exec(spec)?.[1];
    return sub ? join(dir, "dist", sub, "index.d.ts") : undefined;
  };
  // A type-checked program (ts-morph's, with TypeScript's lib files in memory), not loading/program.ts's
  // parse-only one: a call's kind is found through the checker's types.
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    resolutionHost: (host, getOptions) => ({
      resolveModuleNames: (names, containingFile) =>
        names.map((name) => {
          const rt = runtimeEntry(name);
          if (rt && existsSync(rt)) return { resolvedFileName: rt, extension: ts.Extension.Dts };
          return name.startsWith(".")
            ? ts.resolveModuleName(name, containingFile, getOptions(), host).resolvedModule
            : undefined;
        }),
    }),
    compilerOptions: OPTIONS,
  });
  project.createSourceFile(KBTS_LIB_PATH, KBTS_LIB, { overwrite: true });
  for (const f of files) project.createSourceFile(f, readFileSync(f, "utf8"), { overwrite: true });
  project.resolveSourceFileDependencies();
  const program = project.getProgram().compilerObject;
  const checker = program.getTypeChecker();
  const scan = new Scan(root, checker, builtins, `${join(dir, "dist")}/`, program.getSourceFiles());
  for (const f of files) {
    const sf = program.getSourceFile(f);
    if (sf) scan.file(sf);
  }
  return { usages: scan.usages, unresolved: scan.unresolved };
}

class Scan {
  readonly usages: Usage[] = [];
  readonly unresolved: Unresolved[] = [];
  /** Object types (by their declaration) to the kind whose descriptor carries them: Kind<T> → T. */
  private readonly byObjectType = new Map<ts.Symbol, KindRef>();
  private indexed = false;

  constructor(
    private readonly root: string,
    private readonly checker: ts.TypeChecker,
    private readonly builtins: Map<string, KindRef>,
    private readonly runtimeDist: string,
    private readonly sourceFiles: readonly ts.SourceFile[],
  ) {}

  file(sf: ts.SourceFile): void {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) this.call(node, sf);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }

  private isRuntime(decl: ts.Node): boolean {
    return decl.getSourceFile().fileName.startsWith(this.runtimeDist);
  }

  /** "Interface.method" or "function" for a callee the runtime declares; undefined otherwise. */
  private ruleName(call: ts.CallExpression): string | undefined {
    const callee = call.expression;
    const nameNode = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    let symbol = this.checker.getSymbolAtLocation(nameNode);
    if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
    for (const decl of symbol?.declarations ?? []) {
      if (!this.isRuntime(decl)) continue;
      if (ts.isFunctionDeclaration(decl) && decl.name) return decl.name.text;
      const owner = decl.parent;
      if ((ts.isInterfaceDeclaration(owner) || ts.isClassDeclaration(owner)) && owner.name) {
        const key = `${owner.name.text}.${symbol?.getName()}`;
        if (RULES[key]) return key;
      }
    }
    return undefined;
  }

  private where(node: ts.Node): string {
    return nodeWhere(this.root, node);
  }

  private call(call: ts.CallExpression, sf: ts.SourceFile): void {
    const name = this.ruleName(call);
    if (!name) return;
    const rule = RULES[name];
    if (!rule) return;
    const where = this.where(call);
    const callee = call.expression;
    const receiver = ts.isPropertyAccessExpression(callee) ? callee.expression : undefined;
    const text = (kindText: string) =>
      `${receiver ? `${receiver.getText(sf)}.` : ""}${ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(sf)}(${kindText})`;
    const add = (perms: Permission[], label: string) => {
      for (const p of perms) this.usages.push({ ...p, where, call: label });
    };
    if (rule.fixed) {
      add(rule.fixed, text("…"));
      return;
    }

    if (rule.finalizersOfArg !== undefined) {
      const arg = call.arguments[rule.finalizersOfArg];
      // A reference that does not block the owner's deletion needs nothing.
      const blocking = blockOwnerDeletion(call.arguments[2]);
      if (blocking === false || (rule.onlyIfBlocking && blocking !== true)) return;
      const kind = arg ? this.kindOfObject(arg) : undefined;
      if (!kind) {
        this.unresolved.push({
          where,
          call: text(arg?.getText(sf) ?? ""),
          reason:
            "the object's type is not one a Kind descriptor carries (Kind<T>), so its finalizers permission cannot be named",
        });
        return;
      }
      add(
        [{ group: kind.group, resource: `${kind.plural}/finalizers`, verb: "update" }],
        text(arg?.getText(sf) ?? ""),
      );
      return;
    }

    const arg = rule.kindArg === undefined ? undefined : call.arguments[rule.kindArg];
    const resolved = arg ? this.kindOf(arg) : { reason: "the call has no kind argument" };
    const label = text(arg?.getText(sf) ?? "");
    if ("reason" in resolved) {
      this.unresolved.push({ where, call: label, reason: resolved.reason });
      return;
    }
    let resource = resolved.plural;
    if (rule.subresource) {
      const sub = receiver ? this.subresourceOf(receiver) : undefined;
      if (!sub) {
        this.unresolved.push({
          where,
          call: label,
          reason: 'the subresource is not a string literal kbts can read (status() or subResource("name"))',
        });
        return;
      }
      resource = `${resolved.plural}/${sub}`;
    }
    let verbs = rule.verbs;
    if (verbs === "cached-read") {
      // The manager's Client and Cache read through informers; a plain Reader (getAPIReader) does not.
      const method = ts.isPropertyAccessExpression(callee) ? callee.name.text : "get";
      verbs = receiver && this.isUncachedReader(receiver) ? [method] : CACHED_READ;
    }
    add(
      verbs.map((verb) => ({ group: resolved.group, resource, verb })),
      label,
    );
    if (STATUS_PATCH_OF.has(name))
      add([{ group: resolved.group, resource: `${resolved.plural}/status`, verb: "patch" }], label);
  }

  /** A receiver typed as the runtime's Reader (and not a Client or Cache) reads the API server directly. */
  private isUncachedReader(receiver: ts.Expression): boolean {
    const type = this.checker.getTypeAtLocation(receiver).getNonNullableType();
    const names = (type.isUnion() ? type.types : [type]).map((t) =>
      (t.aliasSymbol ?? t.getSymbol())?.getName(),
    );
    return names.every((n) => n === "Reader");
  }

  /** status() → "status", subResource("scale") → "scale", following a local constant. */
  private subresourceOf(expr: ts.Expression, depth = 0): string | undefined {
    if (depth > 5) return undefined;
    // `client.subResource("eviction") as SubResourceClientWithCreate`: the cast names no other subresource.
    if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr))
      return this.subresourceOf(expr.expression, depth + 1);
    if (ts.isCallExpression(expr) && ts.isPropertyAccessExpression(expr.expression)) {
      const method = expr.expression.name.text;
      if (method === "status") return "status";
      const first = expr.arguments[0];
      if (method === "subResource" && first && ts.isStringLiteralLike(first)) return first.text;
      return undefined;
    }
    if (ts.isIdentifier(expr)) {
      const decl = this.checker.getSymbolAtLocation(expr)?.valueDeclaration;
      if (decl && ts.isVariableDeclaration(decl) && decl.initializer)
        return this.subresourceOf(decl.initializer, depth + 1);
    }
    return undefined;
  }

  /** Follows a kind argument to its descriptor: defineKind({...}), a runtime built-in, or Kind<T>'s T. */
  private kindOf(expr: ts.Expression, depth = 0): KindRef | { reason: string } {
    if (depth > 8) return { reason: "the kind is reached through too many indirections" };
    if (ts.isParenthesizedExpression(expr) || ts.isAsExpression(expr) || ts.isNonNullExpression(expr))
      return this.kindOf(expr.expression, depth + 1);
    if (ts.isCallExpression(expr)) {
      const lit = defineKindLiteral(expr);
      if (lit) return lit;
    }
    if (ts.isIdentifier(expr) || ts.isPropertyAccessExpression(expr)) {
      let symbol = this.checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expr) ? expr.name : expr);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = this.checker.getAliasedSymbol(symbol);
      const decl = symbol?.valueDeclaration;
      if (decl) {
        const found = this.kindOfDeclaration(decl, depth);
        if (found) return found;
      }
    }
    // Typed values: a Kind<GPUBudget> names its object type, and the object type names its descriptor.
    const byType = this.kindOfKindType(this.checker.getTypeAtLocation(expr));
    if (byType) return byType;
    const decl = ts.isIdentifier(expr) ? this.checker.getSymbolAtLocation(expr)?.valueDeclaration : undefined;
    return {
      reason:
        decl && ts.isParameter(decl)
          ? `the kind is the parameter ${expr.getText()}, chosen by each caller`
          : `${expr.getText()} is not a Kind descriptor kbts can follow (defineKind, a generated or built-in kind)`,
    };
  }

  private kindOfDeclaration(decl: ts.Declaration, depth: number): KindRef | { reason: string } | undefined {
    if (this.isRuntime(decl) && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) {
      return this.builtins.get(decl.name.text);
    }
    if (ts.isVariableDeclaration(decl) && decl.initializer) {
      const inner = this.kindOf(decl.initializer, depth + 1);
      if (!("reason" in inner) && ts.isIdentifier(decl.name) && ts.isCallExpression(decl.initializer))
        return { ...inner, name: decl.name.text };
      return "reason" in inner ? undefined : inner;
    }
    if (ts.isPropertyAssignment(decl)) {
      const inner = this.kindOf(decl.initializer, depth + 1);
      return "reason" in inner ? undefined : inner;
    }
    return undefined;
  }

  /** Kind<T> → the kind whose descriptor carries T. */
  private kindOfKindType(type: ts.Type): KindRef | undefined {
    const t = type.getNonNullableType();
    const sym = t.aliasSymbol ?? t.getSymbol();
    if (sym?.getName() !== "Kind") return undefined;
    const args = t.aliasTypeArguments ?? this.checker.getTypeArguments(t as ts.TypeReference);
    const obj = args[0];
    return obj ? this.kindOfObjectType(obj) : undefined;
  }

  /** The kind of an object value by its type: GPUBudget → GPUBudgetKind. */
  private kindOfObject(expr: ts.Expression): KindRef | undefined {
    return this.kindOfObjectType(this.checker.getTypeAtLocation(expr));
  }

  private kindOfObjectType(type: ts.Type): KindRef | undefined {
    this.indexDescriptors();
    const sym = type.getNonNullableType().aliasSymbol ?? type.getNonNullableType().getSymbol();
    return sym ? this.byObjectType.get(sym) : undefined;
  }

  /** Every descriptor the program can see: defineKind<T> calls in the project and the runtime's kinds. */
  private indexDescriptors(): void {
    if (this.indexed) return;
    this.indexed = true;
    for (const sf of this.sourceFiles) {
      const visit = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
          const type = this.checker.getTypeAtLocation(node.name);
          const t = type.aliasSymbol ?? type.getSymbol();
          if (t?.getName() === "Kind") {
            const kind = this.kindOf(node.name);
            const args = type.aliasTypeArguments ?? this.checker.getTypeArguments(type as ts.TypeReference);
            const objSym = args[0]?.aliasSymbol ?? args[0]?.getSymbol();
            if (!("reason" in kind) && objSym && !this.byObjectType.has(objSym))
              this.byObjectType.set(objSym, kind);
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  }
}

/** The literal blockOwnerDeletion of an owner-reference options argument, when it is written as one. */
function blockOwnerDeletion(options: ts.Expression | undefined): boolean | undefined {
  if (!options || !ts.isObjectLiteralExpression(options)) return undefined;
  for (const p of options.properties) {
    if (!ts.isPropertyAssignment(p) || p.name.getText() !== "blockOwnerDeletion") continue;
    if (p.initializer.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (p.initializer.kind === ts.SyntaxKind.TrueKeyword) return true;
  }
  return undefined;
}

/** `defineKind({ group: "...", plural: "...", ... })` read literally. */
function defineKindLiteral(call: ts.CallExpression): KindRef | undefined {
  const callee = call.expression;
  const name = ts.isIdentifier(callee)
    ? callee.text
    : ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : "";
  const arg = call.arguments[0];
  if (name !== "defineKind" || !arg || !ts.isObjectLiteralExpression(arg)) return undefined;
  const field = (key: string) => {
    for (const p of arg.properties) {
      if (ts.isPropertyAssignment(p) && p.name.getText() === key && ts.isStringLiteralLike(p.initializer))
        return p.initializer.text;
    }
    return undefined;
  };
  const group = field("group");
  const plural = field("plural");
  if (group === undefined || plural === undefined) return undefined;
  return { group, plural, name: field("kind") ?? plural };
}
