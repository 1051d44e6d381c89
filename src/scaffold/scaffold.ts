import { KbtsError } from "../errors.js";
import type { StagedFS } from "../files/staged.js";
import { insertAtMarkers, MissingMarkerError, organizeImports, removeFragments } from "./markers.js";
import type { Renderer, TemplateFile } from "./template.js";

/**
 * Runs templates and insertions against a staged tree. Every policy check happens while staging, so
 * an error (an existing file under `ifExists: "error"`, a missing insertion point) stops the
 * command before the first write.
 */
export class Scaffold {
  /** Files a template would have made that already existed and were left as they are. */
  readonly kept: string[] = [];
  constructor(
    readonly fs: StagedFS,
    private readonly renderer: Renderer,
    /** License header for generated TypeScript files ("" for none), YEAR already substituted. */
    private readonly header: string,
  ) {}

  /** Renders one template to its path, honouring its if-exists policy; returns the path. */
  template(file: TemplateFile, data: object, options: { force?: boolean } = {}): string {
    const path = this.renderer.outputPath(file, data);
    const policy = options.force && file.ifExists === "error" ? "overwrite" : (file.ifExists ?? "skip");
    if (this.fs.exists(path)) {
      if (policy === "skip") {
        this.kept.push(path);
        return path;
      }
      if (policy === "error") {
        throw new KbtsError(`${path} already exists`, {
          where: path,
          fix: "pass --force to overwrite the scaffolded files, or choose another kind/version",
        });
      }
    }
    let body = this.renderer.render(file.template, data);
    if (path.endsWith(".ts") && this.header && file.header !== false) body = `${this.header}\n\n${body}`;
    this.fs.write(path, body);
    return path;
  }

  /** A fragment template rendered with the one renderer and template data, for an insertion. */
  fragment(template: string, data: object): string {
    return this.renderer.render(template, data);
  }

  /** The content of a file an edit needs: a missing one is an error naming it, as nothing can be added. */
  private existing(path: string): string {
    const content = this.fs.read(path);
    if (content === undefined) {
      throw new KbtsError(`${path} is missing`, {
        where: path,
        fix: "restore it from version control, or re-create it with `kbts init` in an empty directory",
      });
    }
    return content;
  }

  /** Inserts fragments at named markers of an existing (or staged) file. */
  insert(path: string, fragments: Record<string, string[]>): void {
    const content = this.existing(path);
    let next: string;
    try {
      next = insertAtMarkers(path, content, fragments);
    } catch (err) {
      if (err instanceof MissingMarkerError) {
        throw new KbtsError(`insertion point "${err.marker}" not found`, {
          where: path,
          fix: `put the line "${err.marker}" back where kbts should add code`,
        });
      }
      throw err;
    }
    if (path.endsWith(".ts") && next !== content) next = organizeImports(next);
    if (next !== content) this.fs.write(path, next);
  }

  /**
   * Takes back fragments an earlier step inserted (`insert`), matched as `insert` finds them: by their
   * trimmed lines, so the file's indentation does not matter. For a plugin that wires its own code in
   * place of the base plugin's (the fragments come from the base plugin's own function, one source).
   */
  remove(path: string, fragments: string[]): void {
    const content = this.existing(path);
    const next = removeFragments(content, fragments);
    if (next !== content) this.fs.write(path, next);
  }

  /**
   * Any other edit of a file that must exist: through a parser (a `yaml` Document, JSON), a carried
   * template change, or uncommenting a block the same template rendered. A missing file is an error, as
   * for `insert`, so an edit aimed at a file the user deleted does not vanish without a word.
   */
  edit(path: string, change: (content: string) => string): void {
    const content = this.existing(path);
    const next = change(content);
    if (next !== content) this.fs.write(path, next);
  }
}
