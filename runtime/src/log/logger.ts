import { createRequire } from "node:module";
import { type DestinationStream, type LoggerOptions as PinoOptions, pino } from "pino";
import type { Logger } from "./types.js";

export interface LoggerOptions {
  /** Human-readable output through pino-pretty (when installed) and debug level by default. */
  development?: boolean;
  /** pino level: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent". Default "info" ("debug" in development). */
  level?: string;
  /** Bound as `logger` on every line, like logr's WithName. */
  name?: string;
  /** Where JSON lines go (default stdout); mostly for tests. */
  destination?: DestinationStream;
}

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "silent"]);

/** A pino logger with controller-runtime's conventions: JSON lines, `ts`, `level` as a label. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (options.development ? "debug" : "info");
  if (!LEVELS.has(level)) {
    throw new Error(`createLogger: unknown level "${level}"; use one of ${[...LEVELS].join(", ")}`);
  }
  const pinoOptions: PinoOptions = {
    level,
    base: options.name ? { logger: options.name } : null,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    hooks: { logMethod: dropBoundDuplicates as NonNullable<PinoOptions["hooks"]>["logMethod"] },
  };
  if (options.destination) return pino(pinoOptions, options.destination);
  if (options.development && prettyAvailable()) {
    return pino({
      ...pinoOptions,
      transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l" } },
    });
  }
  return pino(pinoOptions);
}

/**
 * `log.info({ name: ct.metadata.name }, ...)` in a reconcile whose logger already carries `name`
 * would print the key twice on one JSON line: a field equal to a bound one is dropped.
 */
function dropBoundDuplicates(
  this: { bindings(): object },
  args: unknown[],
  method: (...a: unknown[]) => void,
): void {
  const first = args[0] as unknown;
  if (first && typeof first === "object" && !(first instanceof Error) && !Array.isArray(first)) {
    const bound = this.bindings() as Record<string, unknown>;
    let fields: Record<string, unknown> | undefined;
    for (const [k, v] of Object.entries(first)) {
      if (k in bound && bound[k] === v) {
        fields ??= { ...(first as Record<string, unknown>) };
        delete fields[k];
      }
    }
    if (fields) (args as unknown[])[0] = fields;
  }
  method.apply(this, args as unknown[]);
}

const NOP: Logger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  child: () => NOP,
};

/** Discards everything: the default when a caller gives no logger (tests, libraries). */
export function nopLogger(): Logger {
  return NOP;
}

// pino-pretty is optional at run time (a dev dependency): fall back to JSON when it is absent.
function prettyAvailable(): boolean {
  try {
    createRequire(import.meta.url).resolve("pino-pretty");
    return true;
  } catch {
    return false;
  }
}
