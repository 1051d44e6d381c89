import { relative } from "node:path";
import { KbtsError } from "../errors.js";
import { ts } from "../loading/typescript.js";
import { type CommentGroup, FileComments, mayContainMarkers } from "./comments.js";
import { cleanDescription, isDirectiveLine } from "./doc.js";
import { type MarkerWarning, parseMarker } from "./parse.js";
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
 * Collects markers once per node (controller-tools' Collector): declarations and properties get the
 * markers of their doc group and the group before it; every other comment is package-level.
 * Malformed markers are gathered as errors, unknown ones as warnings; nothing throws.
 */
/** Value markers that may be given several times, each adding a value. */
const REPEATABLE = new Set(["listMapKey", "kubebuilder:validation:XValidation"]);

export class MarkerCollector {
  readonly errors: KbtsError[] = [];
  readonly warnings: MarkerWarning[] = [];
  private readonly files = new Map<ts.SourceFile, FileComments | null>();
  private readonly nodes = new Map<ts.Node, NodeDocs>();
  private readonly packages = new Map<ts.SourceFile, MarkerInstance[]>();

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
    const visit = (node: ts.Node): void => {
      if (CLAIMED_KINDS.has(node.kind)) this.forNode(node);
      ts.forEachChild(node, visit);
    };
    visit(sf);
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
    for (const g of markerGroups) markers.push(...this.parseGroup(fc, g, target));
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
   * A single-valued marker (`+name=<value>`) given twice on one node with different values: only one
   * could win, so neither does; the error names both lines. Markers that collect (listMapKey) repeat.
   */
  private refuseConflicts(markers: MarkerInstance[]): void {
    const first = new Map<MarkerInstance["def"], MarkerInstance>();
    for (const m of markers) {
      if (m.def.args.kind !== "value" || REPEATABLE.has(m.def.name)) continue;
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
    this.packages.set(sf, out);
    return out;
  }

  private parseGroup(fc: FileComments, group: CommentGroup, target: Target): MarkerInstance[] {
    const out: MarkerInstance[] = [];
    const file = relative(this.root, fc.sf.fileName) || fc.sf.fileName;
    for (const line of fc.lines(group)) {
      if (!line.marker) continue;
      try {
        const r = parseMarker(this.registry, target, line.text, { file, line: line.line, col: line.col });
        if (r.kind === "marker") out.push(r.marker);
        // Free comments hold any kind of marker; only warn there for names nobody knows.
        else if (r.kind === "warning" && (target !== "package" || r.warning.message.startsWith("unknown")))
          this.warnings.push(r.warning);
      } catch (err) {
        if (err instanceof KbtsError) this.errors.push(err);
        else throw err;
      }
    }
    return out;
  }
}
