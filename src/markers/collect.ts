import { dirname, relative } from "node:path";
import { KbtsError } from "../errors.js";
import { ts } from "../ts/typescript.js";
import { sourcePath } from "../ts/where.js";
import { type CommentGroup, type CommentLine, FileComments, mayContainMarkers } from "./comments.js";
import { cleanDescription, isDirectiveLine } from "./doc.js";
import { type MarkerWarning, markerName, parseMarker } from "./parse.js";
import { formatLocation, type MarkerInstance, MarkerSet, type Registry, type Target } from "./registry.js";

/** The markers and description of one declaration or property. */
export interface NodeDocs {
  markers: MarkerSet;
  doc: string;
}

const EMPTY: NodeDocs = { markers: new MarkerSet(), doc: "" };

const CLAIMED_KINDS = new Set([
  ts.SyntaxKind.InterfaceDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.EnumDeclaration,
  ts.SyntaxKind.PropertySignature,
  ts.SyntaxKind.EnumMember,
]);

/**
 * Declarations whose doc comment (the group directly above, no blank line) holds no markers kbts
 * reads: Go's func and struct godoc, which controller-tools never reads as package-level.
 */
const DOC_IGNORED_KINDS = new Set([
  ts.SyntaxKind.ClassDeclaration,
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
  ts.SyntaxKind.PropertyDeclaration,
]);

const declarationKind: Partial<Record<ts.SyntaxKind, string>> = {
  [ts.SyntaxKind.ClassDeclaration]: "class",
  [ts.SyntaxKind.FunctionDeclaration]: "function",
  [ts.SyntaxKind.InterfaceDeclaration]: "interface",
  [ts.SyntaxKind.TypeAliasDeclaration]: "type",
  [ts.SyntaxKind.EnumDeclaration]: "enum",
};

/** What a declaration is called in a message: `class EdgeReconciler`, `method reconcile`. */
function describe(node: ts.Node): string {
  const name = (node as { name?: ts.Node }).name;
  const text = name && ts.isIdentifier(name) ? name.text : "";
  const kind =
    declarationKind[node.kind] ?? (node.kind === ts.SyntaxKind.Constructor ? "constructor" : "method");
  return text ? `${kind} ${text}` : kind;
}

/**
 * Collects markers once per node (controller-tools' Collector): declarations and properties get the
 * markers of their doc group and the group before it; every other comment is package-level.
 * Malformed markers are gathered as errors, unknown ones as warnings; nothing throws.
 */
export class MarkerCollector {
  readonly errors: KbtsError[] = [];
  readonly warnings: MarkerWarning[] = [];
  private readonly files = new Map<ts.SourceFile, FileComments | null>();
  private readonly nodes = new Map<ts.Node, NodeDocs>();
  private readonly packages = new Map<ts.SourceFile, MarkerInstance[]>();
  /** Package-level markers found in the marker block above a type (controller-tools moves them). */
  private readonly promoted = new Map<ts.SourceFile, MarkerInstance[]>();

  constructor(
    readonly registry: Registry,
    readonly root: string,
  ) {}

  private comments(sf: ts.SourceFile): FileComments | null {
    let fc = this.files.get(sf);
    if (fc === undefined) {
      fc = mayContainMarkers(sf.text) || /\/\/|\/\*/.test(sf.text) ? new FileComments(sf) : null;
      this.files.set(sf, fc);
      if (fc) this.claimAll(sf);
    }
    return fc;
  }

  private claimAll(sf: ts.SourceFile): void {
    const bodies: ts.Node[] = [];
    const visit = (node: ts.Node): void => {
      if (CLAIMED_KINDS.has(node.kind)) this.forNode(node);
      else if (DOC_IGNORED_KINDS.has(node.kind)) this.ignoreDoc(node);
      if ((ts.isBlock(node) && ts.isFunctionLike(node.parent)) || ts.isInterfaceDeclaration(node))
        bodies.push(node);
      ts.forEachChild(node, visit);
    };
    visit(sf);
    // After every declaration has claimed its groups: what is left inside a function body or an
    // interface is not package-level, as controller-tools never reads markers inside a Go func body
    // or a struct that no field claims.
    for (const body of bodies) this.ignoreWithin(body);
  }

  /** Markers and description of a declaration (target "type") or property (target "field"). */
  forNode(node: ts.Node): NodeDocs {
    const cached = this.nodes.get(node);
    if (cached) return cached;
    const sf = node.getSourceFile();
    const fc = this.comments(sf);
    if (!fc) return EMPTY;
    const again = this.nodes.get(node);
    if (again) return again;
    const target: Target =
      node.kind === ts.SyntaxKind.PropertySignature || node.kind === ts.SyntaxKind.EnumMember
        ? "field"
        : "type";
    const { doc, markerGroups } = fc.claimFor(node);
    const markers: MarkerInstance[] = [];
    for (const g of markerGroups) {
      // controller-tools: in a type's marker block apart from its doc comment, a marker that is
      // package-level and not type-level belongs to the package (+kubebuilder:skip, +groupName...).
      const promote = target === "type" && g !== doc ? this.promotable(fc, g, node) : new Set<number>();
      markers.push(...this.parseGroup(fc, g, target, promote));
    }
    const docLines = doc
      ? fc
          .lines(doc)
          .filter((l) => !l.marker && !isDirectiveLine(l.text))
          .map((l) => l.text)
      : [];
    this.refuseConflicts(markers);
    const result = { markers: new MarkerSet(markers), doc: cleanDescription(docLines) };
    this.nodes.set(node, result);
    return result;
  }

  /**
   * A marker that is not repeatable given twice on one node with different values: only one could
   * win, so neither does; the error names both lines. Repeatable markers (listMapKey, XValidation,
   * AtMostOneOf, printcolumn...) each add their value.
   */
  private refuseConflicts(markers: MarkerInstance[]): void {
    const first = new Map<MarkerInstance["def"], MarkerInstance>();
    for (const m of markers) {
      if (m.def.repeatable) continue;
      const before = first.get(m.def);
      if (!before) {
        first.set(m.def, m);
        continue;
      }
      if (JSON.stringify(before.value) === JSON.stringify(m.value)) continue;
      this.errors.push(
        new KbtsError(
          `+${m.def.name} is given twice with different values: ${before.text.trim()} (line ${before.loc.line}) and ${m.text.trim()} (line ${m.loc.line})`,
          {
            where: formatLocation(m.loc),
            fix: `keep one of them (${formatLocation(before.loc)} or this one)`,
          },
        ),
      );
    }
  }

  /** Package-level markers of a file (rbac, webhook, groupName, ...). */
  packageMarkers(sf: ts.SourceFile): MarkerInstance[] {
    const cached = this.packages.get(sf);
    if (cached) return cached;
    const fc = this.comments(sf);
    const out: MarkerInstance[] = [];
    if (fc) for (const g of fc.freeGroups()) out.push(...this.parseGroup(fc, g, "package"));
    out.push(...(this.promoted.get(sf) ?? []));
    this.packages.set(sf, out);
    return out;
  }

  /**
   * The lines of a type's marker block (not its doc comment) that controller-tools reads as
   * package-level: no type-level marker has the name, a package-level one does. Those that change
   * the whole package (+kubebuilder:skip, +kubebuilder:validation:Optional) are said in a warning.
   */
  private promotable(fc: FileComments, group: CommentGroup, node: ts.Node): Set<number> {
    const lines = new Set<number>();
    const file = sourcePath(this.root, fc.sf.fileName);
    for (const line of fc.lines(group)) {
      if (!line.marker) continue;
      const name = markerName(line.text);
      if (this.registry.lookup("type", name) || this.registry.isIgnored(name)) continue;
      const found = this.registry.lookup("package", name);
      if (!found) continue;
      lines.add(line.line);
      const effect = found.def.packageEffect;
      if (!effect) continue;
      const pkg = relative(this.root, dirname(fc.sf.fileName)) || ".";
      this.warnings.push({
        where: `${file}:${line.line}:${line.col}`,
        message: `+${found.def.name} stands in the marker block above ${describe(node)}, apart from its doc comment, where controller-gen reads it as package-level: ${effect} (${pkg}); kbts does the same. To make it apply to the package on purpose, move it to the package's groupversion_info.ts; otherwise remove it`,
      });
    }
    return lines;
  }

  /** A class's, function's or method's doc comment: its package-level markers are ignored, and said so. */
  private ignoreDoc(node: ts.Node): void {
    const fc = this.comments(node.getSourceFile());
    const doc = fc?.claimDoc(node);
    if (fc && doc) this.warnIgnored(fc, [doc], `the doc comment of ${describe(node)}`);
  }

  /** Says that the package-level markers of `groups` (found in `place`) are ignored, as controller-gen does. */
  private warnIgnored(fc: FileComments, groups: CommentGroup[], place: string): void {
    const file = sourcePath(this.root, fc.sf.fileName);
    for (const group of groups) {
      for (const line of fc.lines(group)) {
        if (!line.marker) continue;
        const found = this.registry.lookup("package", markerName(line.text));
        if (!found) continue;
        this.warnings.push({
          where: `${file}:${line.line}:${line.col}`,
          message: `+${found.def.name} in ${place} is ignored, as controller-gen ignores markers in a declaration's doc comment or a function's body; put package-level markers apart from any declaration, a blank line before the next one`,
        });
      }
    }
  }

  /** Comment groups left inside a function body or interface: their package-level markers are ignored, and said so. */
  private ignoreWithin(body: ts.Node): void {
    const fc = this.comments(body.getSourceFile());
    if (!fc) return;
    const owner = describe(ts.isInterfaceDeclaration(body) ? body : (body.parent as ts.Node));
    this.warnIgnored(fc, fc.claimWithin(body.getStart(), body.end), `the body of ${owner}`);
  }

  /** The markers of a group for a target; lines in `asPackage` are package-level markers of the file. */
  private parseGroup(
    fc: FileComments,
    group: CommentGroup,
    target: Target,
    asPackage: ReadonlySet<number> = new Set(),
  ): MarkerInstance[] {
    const out: MarkerInstance[] = [];
    const file = sourcePath(this.root, fc.sf.fileName);
    for (const line of fc.lines(group)) {
      if (!line.marker) continue;
      if (asPackage.has(line.line)) {
        const promoted = this.parseGroupLine(line, file, "package");
        if (promoted) this.promoted.set(fc.sf, [...(this.promoted.get(fc.sf) ?? []), promoted]);
        continue;
      }
      const m = this.parseGroupLine(line, file, target);
      if (m) out.push(m);
    }
    return out;
  }

  private parseGroupLine(line: CommentLine, file: string, target: Target): MarkerInstance | undefined {
    try {
      const r = parseMarker(this.registry, target, line.text, { file, line: line.line, col: line.col });
      if (r.kind === "marker") return r.marker;
      // Free comments hold any kind of marker; only warn there for names nobody knows.
      if (r.kind === "warning" && (target !== "package" || r.warning.message.startsWith("unknown")))
        this.warnings.push(r.warning);
    } catch (err) {
      if (err instanceof KbtsError) this.errors.push(err);
      else throw err;
    }
    return undefined;
  }
}
