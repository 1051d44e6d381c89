/**
 * The relative-import graph of a source tree (production modules only, tests excluded), for the
 * layering tests: which module imports which, type-only imports included, since a type circle is
 * still a circle for a reader.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

/** Module path (relative to root, "/"-separated) → the modules it imports. */
export type ImportGraph = Map<string, string[]>;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory())
      return name === "node_modules" || name === "testdata" ? [] : sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$|\.d\.ts$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec).replace(/\.js$/, "");
  for (const candidate of [`${base}.ts`, join(base, "index.ts")]) if (existsSync(candidate)) return candidate;
  return undefined;
}

export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  const name = (p: string) => relative(root, p).split("\\").join("/");
  for (const file of sources(root)) {
    const text = readFileSync(file, "utf8");
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveImport(file, m[1] ?? m[2] ?? "");
      if (target) targets.add(name(target));
    }
    graph.set(name(file), [...targets].sort());
  }
  return graph;
}

/** One import cycle, as the list of modules around it (first repeated last), or undefined. */
export function findCycle(graph: ImportGraph): string[] | undefined {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === "done") return undefined;
    if (state.get(node) === "open") return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, "done");
    return undefined;
  };
  for (const node of [...graph.keys()].sort()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}

/** The distinct [from, to] pairs of groups (e.g. folders) that import one another, sorted. */
export function folderEdges(graph: ImportGraph, groupOf: (module: string) => string): [string, string][] {
  const edges = new Set<string>();
  for (const [from, targets] of graph)
    for (const to of targets)
      if (groupOf(from) !== groupOf(to)) edges.add(`${groupOf(from)}\0${groupOf(to)}`);
  return [...edges].sort().map((e) => e.split("\0") as [string, string]);
}
