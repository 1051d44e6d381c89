import { ts } from "../ts/typescript.js";
import { blockCommentLines, isMarkerLine, lineCommentText } from "./doc.js";

/** One comment of a source file, with 1-based line numbers. */
export interface Comment {
  pos: number;
  end: number;
  block: boolean;
  text: string;
  line: number;
  endLine: number;
}

/** Consecutive comments on adjacent lines with nothing between them: Go's comment group. */
export type CommentGroup = Comment[];

/** A line of a comment group: description text or a marker, with the position of its first char. */
export interface CommentLine {
  text: string;
  marker: boolean;
  line: number;
  col: number;
}

/** Comments indexed for one source file; groups are handed out once (to a node or to the package). */
export class FileComments {
  private readonly runs = new Map<number, CommentGroup[]>();
  private readonly claimed = new Set<number>();

  constructor(readonly sf: ts.SourceFile) {
    const seen = new Set<number>();
    const text = sf.text;
    const visit = (node: ts.Node): void => {
      const start = node.pos;
      if (!seen.has(start)) {
        seen.add(start);
        const ranges = ts.getLeadingCommentRanges(text, start);
        if (ranges && ranges.length > 0) this.runs.set(start, this.group(ranges, start));
      }
      for (const child of node.getChildren(sf)) visit(child);
    };
    visit(sf);
  }

  private group(ranges: readonly ts.CommentRange[], runStart: number): CommentGroup[] {
    const text = this.sf.text;
    const groups: CommentGroup[] = [];
    let prev: Comment | undefined;
    let prevTrailing = false;
    for (const r of ranges) {
      const c: Comment = {
        pos: r.pos,
        end: r.end,
        block: r.kind === ts.SyntaxKind.MultiLineCommentTrivia,
        text: text.slice(r.pos, r.end),
        line: this.sf.getLineAndCharacterOfPosition(r.pos).line + 1,
        endLine: this.sf.getLineAndCharacterOfPosition(r.end).line + 1,
      };
      // A first comment on the line of the previous token is that token's trailing comment.
      const trailing = prev === undefined && runStart > 0 && !text.slice(runStart, r.pos).includes("\n");
      if (prev && !prevTrailing && c.line === prev.endLine + 1)
        (groups[groups.length - 1] as CommentGroup).push(c);
      else groups.push([c]);
      prev = c;
      prevTrailing = trailing;
    }
    return groups;
  }

  /**
   * The comment groups that belong to a declaration or property (controller-tools' association):
   * its doc group (directly above it) and the closest group before that (markers only).
   */
  claimFor(node: ts.Node): { doc: CommentGroup | undefined; markerGroups: CommentGroup[] } {
    const { doc, before } = this.groupsOf(node);
    const markerGroups = [before, doc].filter((g): g is CommentGroup => g !== undefined);
    for (const g of markerGroups) for (const c of g) this.claimed.add(c.pos);
    return { doc, markerGroups };
  }

  /**
   * The doc group of a declaration whose doc markers describe nothing kbts reads (a class, function
   * or method: Go's func and struct godoc), claimed so its markers are not package-level, as
   * controller-tools never takes a godoc's markers for the package.
   */
  claimDoc(node: ts.Node): CommentGroup | undefined {
    const { doc } = this.groupsOf(node);
    if (doc) for (const c of doc) this.claimed.add(c.pos);
    return doc;
  }

  /** Every group not yet claimed that lies between `start` and `end` (a function body), now claimed. */
  claimWithin(start: number, end: number): CommentGroup[] {
    const out: CommentGroup[] = [];
    for (const groups of this.runs.values()) {
      for (const g of groups) {
        const first = g[0] as Comment;
        if (first.pos < start || first.pos >= end || g.some((c) => this.claimed.has(c.pos))) continue;
        for (const c of g) this.claimed.add(c.pos);
        out.push(g);
      }
    }
    return out;
  }

  /** A node's doc group (ending on the line above it) and the closest group before that. */
  private groupsOf(node: ts.Node): { doc: CommentGroup | undefined; before: CommentGroup | undefined } {
    const groups = this.runs.get(node.pos) ?? [];
    const nodeLine = this.sf.getLineAndCharacterOfPosition(node.getStart(this.sf)).line + 1;
    const last = groups[groups.length - 1];
    if (last && (last[last.length - 1] as Comment).endLine === nodeLine - 1)
      return { doc: last, before: groups[groups.length - 2] };
    return { doc: undefined, before: last };
  }

  /** Every comment group no declaration claimed: their markers are package-level. */
  freeGroups(): CommentGroup[] {
    const out: CommentGroup[] = [];
    for (const groups of this.runs.values()) {
      for (const g of groups) if (!g.some((c) => this.claimed.has(c.pos))) out.push(g);
    }
    return out;
  }

  /** The lines of a group, each flagged as marker or text, with source positions. */
  lines(group: CommentGroup): CommentLine[] {
    const out: CommentLine[] = [];
    for (const c of group) {
      if (!c.block) {
        const text = lineCommentText(c.text);
        const trimmed = text.trimStart();
        const lc = this.sf.getLineAndCharacterOfPosition(c.pos);
        const col = lc.character + 1 + 2 + (c.text.length - 2 - trimmed.length);
        out.push({
          text: isMarkerLine(text) ? trimmed.trimEnd() : text,
          marker: isMarkerLine(text),
          line: lc.line + 1,
          col,
        });
        continue;
      }
      const rawLines = c.text.split(/\r?\n/);
      const cleaned = blockCommentLines(c.text);
      // Map cleaned lines back to source lines for marker positions.
      let offsetLine = 0;
      for (const l of cleaned) {
        while (offsetLine < rawLines.length && !(rawLines[offsetLine] as string).includes(l)) offsetLine++;
        const srcLine = rawLines[offsetLine] ?? "";
        const baseLc = this.sf.getLineAndCharacterOfPosition(c.pos);
        const line = baseLc.line + 1 + Math.min(offsetLine, rawLines.length - 1);
        const col = (offsetLine === 0 ? baseLc.character : 0) + srcLine.indexOf(l) + 1;
        out.push({ text: l, marker: isMarkerLine(l), line, col: Math.max(col, 1) });
      }
    }
    return out;
  }
}

/** Cheap pre-check: does a file contain anything that looks like a marker? */
export const mayContainMarkers = (text: string): boolean => /(\/\/|^\s*\*)\s*\+/m.test(text);
