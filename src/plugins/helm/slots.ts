/**
 * Helm template text from Kubernetes objects without string surgery on YAML: the object is copied
 * with placeholders ("slots") where Helm expressions go, printed as YAML (as kubectl prints it),
 * then each placeholder is replaced. An inline slot stands for a scalar; a block slot replaces a
 * key's value (or the whole key) with lines rendered at that key's indentation.
 */
import { stringify } from "yaml";

/** Renders the lines that replace a block slot; `indent` is the key's own indentation. */
export type BlockRender = (indent: string) => string[];

interface Block {
  /** "value": the key line stays and the lines follow it; "key": the lines replace the key too. */
  mode: "value" | "key";
  render: BlockRender;
}

const TOKEN = /kbtsHelmSlot\d{4}/g;

export class Slots {
  private count = 0;
  private readonly inlines = new Map<string, string>();
  private readonly blocks = new Map<string, Block>();

  private token(): string {
    this.count++;
    return `kbtsHelmSlot${String(this.count).padStart(4, "0")}`;
  }

  /** A scalar replaced by `text` (a Helm expression, or a string containing some). */
  inline(text: string): string {
    const t = this.token();
    this.inlines.set(t, text);
    return t;
  }

  /** The key stays (`key:`); its value becomes the rendered lines, indented below it. */
  value(render: BlockRender): string {
    const t = this.token();
    this.blocks.set(t, { mode: "value", render });
    return t;
  }

  /** The whole `key: ...` line becomes the rendered lines (which must re-state the key if wanted). */
  key(render: BlockRender): string {
    const t = this.token();
    this.blocks.set(t, { mode: "key", render });
    return t;
  }

  /** Prints `object` as YAML and fills every slot; `{{`/`}}` already in the object are escaped for Helm. */
  render(object: unknown): string {
    const yaml = stringify(object, { indentSeq: false, lineWidth: 0, aliasDuplicateObjects: false });
    const escaped = escapeTemplateSyntax(yaml);
    const lines: string[] = [];
    for (const line of escaped.split("\n")) {
      const m = /^( *)(- )?([^\s:][^:]*): (kbtsHelmSlot\d{4})$/.exec(line);
      const block = m ? this.blocks.get(m[4] ?? "") : undefined;
      if (!m || !block) {
        lines.push(line);
        continue;
      }
      const dash = m[2] ?? "";
      const indent = (m[1] ?? "") + (dash ? "  " : "");
      if (block.mode === "value") {
        lines.push(`${m[1]}${dash}${m[3]}:`, ...block.render(indent));
      } else {
        if (dash) throw new Error(`a key slot cannot open a list item (${m[3]})`);
        lines.push(...block.render(indent));
      }
    }
    return lines.join("\n").replace(TOKEN, (t) => this.inlines.get(t) ?? t);
  }
}

/** Text that must reach the rendered manifest as written: `{{` and `}}` become Helm string literals. */
export function escapeTemplateSyntax(text: string): string {
  return text.replace(/\{\{|\}\}/g, (m) => (m === "{{" ? '{{ "{{" }}' : '{{ "}}" }}'));
}

/** A `{{- toYaml <expr> | nindent N }}` line at `indent`, its content one level deeper than the key. */
export function toYamlLine(expr: string, indent: string, extra = 2): string {
  return `${indent}{{- toYaml ${expr} | nindent ${indent.length + extra} }}`;
}
