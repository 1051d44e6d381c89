import type { LineCounter, YAMLError } from "yaml";

/**
 * Places in a YAML file as errors name them. A parse error: `file:line:col` where the parser saw it,
 * else the file. A node: `file:line` of its first character (parse with a LineCounter), else the file.
 */
export function yamlErrorWhere(file: string, error: YAMLError): string {
  const pos = error.linePos?.[0];
  return pos ? `${file}:${pos.line}:${pos.col}` : file;
}

/** A parse error's message without the excerpt the parser appends after its first line. */
export const yamlErrorText = (error: YAMLError): string => error.message.split("\n")[0] ?? error.message;

/** The 1-based line a YAML node starts on, or undefined for a node without a place (an absent one). */
export function yamlLine(lines: LineCounter, node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? lines.linePos(range[0]).line : undefined;
}

/** `file:line` of a YAML node, or the file when the node has no place. */
export function yamlNodeWhere(file: string, lines: LineCounter, node: unknown): string {
  const line = yamlLine(lines, node);
  return line === undefined ? file : `${file}:${line}`;
}
