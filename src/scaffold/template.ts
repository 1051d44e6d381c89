import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";
import { compareStrings } from "../compare.js";
import { KbtsError } from "../errors.js";
import { renderKindsFile } from "../kinds/render.js";
import { isRestrictedGlobal, RESTRICTED_IMPORT_COMMENT } from "../ts/restricted-globals.js";

/**
 * One generated file: a handlebars template under `templates/`, readable as the file it produces,
 * whose own path (minus the set's folder and `.hbs`, with `{{...}}` filled in) is where it goes.
 */
export type IfExists = "skip" | "overwrite" | "error";

export interface TemplateFile {
  /** Path under templates/, e.g. "typescript/api/api/{{version}}/{{kindLower}}_types.ts.hbs". */
  template: string;
  /** Folder of the set (stripped from the output path), e.g. "typescript/api". */
  set: string;
  /** What to do when the file exists: skip it (default), overwrite it, or fail. */
  ifExists?: IfExists;
  /** false: no license header on this file even when it is TypeScript (e.g. generated code). */
  header?: boolean;
}

/** templates/ of this package: src/scaffold and dist/scaffold are both two levels below the root. */
export const TEMPLATES_ROOT = fileURLToPath(new URL("../../templates/", import.meta.url));

/** Every template of a set, as TemplateFiles with the given default policy. */
export function templateSet(set: string, ifExists: IfExists = "skip", root = TEMPLATES_ROOT): TemplateFile[] {
  const files: TemplateFile[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".hbs")) {
        files.push({ template: relative(root, full).split(sep).join("/"), set, ifExists });
      }
    }
  };
  walk(join(root, set));
  return files.sort((a, b) => compareStrings(a.template, b.template));
}

/** A kind as create api's zz_generated.kinds.ts template gets it. */
interface ScaffoldedKind {
  kind: string;
  kindLower: string;
  plural: string;
  namespaced: boolean;
}

/** Renders templates with strict variables (a missing value is an error, not an empty string). */
export class Renderer {
  private readonly hbs = Handlebars.create();
  private readonly cache = new Map<string, Handlebars.TemplateDelegate>();

  constructor(private readonly root = TEMPLATES_ROOT) {
    // A JSON value (and a TypeScript string literal): `{{json x}}` quotes and escapes x.
    this.hbs.registerHelper("json", (value: unknown) => JSON.stringify(value));
    // A kind may be named like a global or a runtime type the template uses (OpenShift's Proxy, a
    // Request kind): where the kind's type is in scope, `{{global "Promise"}}` is globalThis.Promise,
    // and `{{runtimeImport "Request"}}`/`{{runtimeName "Request"}}` import and use the runtime's
    // type as KbtsRequest. Other kinds read as before.
    const shadows = (name: string, options: Handlebars.HelperOptions): boolean => {
      const root = options.data?.root as { kind?: unknown; typeName?: unknown } | undefined;
      return root?.kind === name || root?.typeName === name;
    };
    this.hbs.registerHelper("global", (name: string, options: Handlebars.HelperOptions) =>
      shadows(name, options) ? `globalThis.${name}` : name,
    );
    this.hbs.registerHelper("runtimeImport", (name: string, options: Handlebars.HelperOptions) =>
      shadows(name, options) ? `${name} as Kbts${name}` : name,
    );
    this.hbs.registerHelper("runtimeName", (name: string, options: Handlebars.HelperOptions) =>
      shadows(name, options) ? `Kbts${name}` : name,
    );
    // `{{#if (restrictedGlobal kind)}}` guards the biome-ignore above an import of such a kind.
    this.hbs.registerHelper(
      "restrictedGlobal",
      (name: unknown) => typeof name === "string" && isRestrictedGlobal(name),
    );
    this.hbs.registerHelper("restrictedImportComment", () => RESTRICTED_IMPORT_COMMENT);
    // `{{fragment "<template>" key=value}}`: another template, without its final newline, so a block a
    // plugin later edits (uncomments) and the template that writes it come from one file.
    this.hbs.registerHelper("fragment", (template: string, options: Handlebars.HelperOptions) =>
      this.render(template, options.hash as object).replace(/\n$/, ""),
    );
    // `{{kindsFile qualifiedGroup version importsSorted kindsSorted}}`: zz_generated.kinds.ts as
    // `kbts generate` writes it (one renderer), for the scaffolded kinds (one `<kind>_types.ts` each).
    this.hbs.registerHelper(
      "kindsFile",
      (group: string, version: string, imports: ScaffoldedKind[], kinds: ScaffoldedKind[]) =>
        renderKindsFile(
          group,
          version,
          imports.map((k) => ({ spec: `./${k.kindLower}_types.js`, names: [k.kind] })),
          kinds.map((k) => ({ name: k.kind, plural: k.plural, namespaced: k.namespaced })),
        ),
    );
  }

  render(template: string, data: object): string {
    let compiled = this.cache.get(template);
    if (!compiled) {
      const source = readFileSync(join(this.root, template), "utf8");
      compiled = this.hbs.compile(source, { noEscape: true, strict: true });
      this.cache.set(template, compiled);
    }
    try {
      return compiled(data);
    } catch (err) {
      throw new KbtsError(`template ${template} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The output path of a template file. */
  outputPath(file: TemplateFile, data: object): string {
    const rel = file.template.slice(file.set.length + 1).replace(/\.hbs$/, "");
    return this.hbs.compile(rel, { noEscape: true, strict: true })(data);
  }
}
