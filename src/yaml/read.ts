import { LineCounter, parseAllDocuments } from "yaml";
import { KbtsError } from "../errors.js";
import { yamlErrorText, yamlErrorWhere, yamlLine } from "./where.js";

/**
 * The one reader of multi-document YAML written by someone else (a CRD directory, a file at a git
 * revision, kustomize's install.yaml): every document's value with the line it starts on, and a YAML
 * error reported at its file:line:col rather than read past. kbts' own output never comes back here:
 * the generators hand their objects along beside the rendered text.
 */

/** One non-empty document of a YAML stream. */
export interface YamlDocument {
  /** The document as plain JavaScript (toJS). */
  value: unknown;
  /** The 1-based line its content starts on. */
  line: number;
}

export interface ReadOptions {
  /** What to do about a YAML error (default: correct the YAML, or regenerate the file). */
  fix?: string;
}

/** Every non-empty document of `text`, in order; throws a KbtsError at `file`:line:col on a YAML error. */
export function readYamlDocuments(text: string, file: string, opts: ReadOptions = {}): YamlDocument[] {
  const lines = new LineCounter();
  const out: YamlDocument[] = [];
  for (const doc of parseAllDocuments(text, { lineCounter: lines })) {
    const error = doc.errors[0];
    if (error) {
      throw new KbtsError(`not valid YAML: ${yamlErrorText(error)}`, {
        where: yamlErrorWhere(file, error),
        fix: opts.fix ?? "correct the YAML, or regenerate the file",
      });
    }
    const value = doc.toJS() as unknown;
    if (value === null || value === undefined) continue;
    out.push({ value, line: yamlLine(lines, doc.contents) ?? 1 });
  }
  return out;
}

/** A Kubernetes object's envelope, enough to pick objects by kind. */
export interface ObjectEnvelope {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string };
}

/** The objects of a manifests file (documents that are mappings), in order; YAML errors as readYamlDocuments. */
export function readManifestObjects(text: string, file: string, opts: ReadOptions = {}): ObjectEnvelope[] {
  return readYamlDocuments(text, file, opts)
    .map((d) => d.value)
    .filter((v): v is ObjectEnvelope => typeof v === "object" && v !== null && !Array.isArray(v));
}
