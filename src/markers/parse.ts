import { KbtsError } from "../errors.js";
import { ArgError, type ArgsShape, describeType, parseArgs } from "./args.js";
import {
  formatLocation,
  type MarkerInstance,
  type MarkerLocation,
  type Registry,
  type Target,
} from "./registry.js";

export interface MarkerWarning {
  message: string;
  where: string;
}

export type ParseOutcome =
  | { kind: "marker"; marker: MarkerInstance }
  | { kind: "warning"; warning: MarkerWarning }
  | { kind: "ignored" };

/** The name a marker is looked up by (controller-tools: the text before `=`). */
export function markerName(text: string): string {
  const body = text.slice(1);
  const eq = body.indexOf("=");
  return eq < 0 ? body : body.slice(0, eq);
}

/**
 * Parses one marker comment (`+name...`, `loc` = position of the `+`) for a target. Malformed
 * arguments throw a KbtsError at the exact column; unknown names give a warning with the closest name.
 */
export function parseMarker(
  registry: Registry,
  target: Target,
  text: string,
  loc: MarkerLocation,
): ParseOutcome {
  const body = text.slice(1);
  const eq = body.indexOf("=");
  const full = eq < 0 ? body : body.slice(0, eq);
  const rest = eq < 0 ? "" : body.slice(eq + 1);
  if (registry.isIgnored(full)) return { kind: "ignored" };
  const found = registry.lookup(target, full);
  if (!found) {
    const elsewhere = registry.targetsOf(full);
    if (elsewhere.length > 0) {
      return {
        kind: "warning",
        warning: {
          where: formatLocation(loc),
          message: `marker +${full} does not apply to a ${target} (it applies to a ${elsewhere.join(" or ")}); ignored`,
        },
      };
    }
    // `+k8s:optional # why`: controller-gen reads the whole line as the marker's name, finds no such
    // marker and ignores it silently; kbts ignores it too, but says so.
    const commented = /^(\S+)\s+#/.exec(full)?.[1];
    if (commented && registry.lookup(target, commented)) {
      return {
        kind: "warning",
        warning: {
          where: formatLocation(loc),
          message: `marker +${commented} is ignored: a "# comment" after it makes it a marker nobody knows (controller-gen ignores it too); put the comment on the line above`,
        },
      };
    }
    const guess = registry.closest(full);
    return {
      kind: "warning",
      warning: {
        where: formatLocation(loc),
        message: `unknown marker +${full}; ignored${guess ? ` (did you mean +${guess}?)` : ""}`,
      },
    };
  }
  const { def, viaPrefix } = found;
  // `+name:key=value,...` found via its prefix: the last name segment is the first argument's key.
  const uncommented = def.hashComments && rest.includes("#") ? rest.slice(0, rest.indexOf("#")) : rest;
  const argText = viaPrefix ? `${full.slice(full.lastIndexOf(":") + 1)}=${uncommented}` : uncommented;
  // Errors point at the marker's `+`; the message quotes the offending text.
  const at = (_offset: number): string => formatLocation(loc);
  try {
    if (eq < 0 && def.args.kind === "value" && !def.args.optional) {
      throw new ArgError(`expected ${describeType(def.args.type)} after "="`, -1);
    }
    const args = parseArgs(def.args, argText);
    const value = def.convert ? def.convert(args, argText) : args;
    return { kind: "marker", marker: { def, value, text, loc } };
  } catch (err) {
    if (err instanceof ArgError) {
      throw new KbtsError(`invalid marker +${def.name}: ${err.message}`, {
        where: at(err.offset),
        fix: `write it as ${usage(def.name, def.args)}`,
      });
    }
    if (err instanceof Error && !(err instanceof KbtsError)) {
      throw new KbtsError(`invalid marker +${def.name}: ${err.message}`, {
        where: at(0),
        fix: `write it as ${usage(def.name, def.args)}`,
      });
    }
    throw err;
  }
}

/** `+name=<value>` / `+name:a=<string>,b=<int>` as the help and error messages show it. */
export function usage(name: string, shape: ArgsShape): string {
  if (shape.kind === "none") return `+${name}`;
  if (shape.kind === "value") return `+${name}=<${describeType(shape.type)}>`;
  const parts = Object.entries(shape.fields).map(
    ([k, f]) => `${f.optional ? "[" : ""}${k}=<${describeType(f.type)}>${f.optional ? "]" : ""}`,
  );
  return parts.length ? `+${name}:${parts.join(",")}` : `+${name}`;
}
