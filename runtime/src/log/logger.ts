import {
  type DestinationStream,
  destination,
  levels,
  type Logger as PinoLogger,
  type LoggerOptions as PinoOptions,
  pino,
} from "pino";
import { consoleDestination } from "./console.js";
import { type TimeEncoding, timestampFunction } from "./time.js";
import type { Logger } from "./types.js";

export interface LoggerOptions {
  /**
   * zap's development defaults: console encoder, debug level, stack traces from warn up. Without it:
   * JSON, info, stack traces from error up (only when stacktraceLevel is given: see there).
   */
  development?: boolean;
  /** "json" (one JSON object a line) or "console" (zap's tab-separated text). Default: console in development. */
  encoder?: LogEncoder;
  /** pino level: "trace" | "debug" | "info" | "warn" | "error" | "fatal" | "silent". Default "info" ("debug" in development). */
  level?: string;
  /**
   * Lines at this pino level and above carry a `stacktrace` field, the caller's stack, as zap's
   * AddStacktrace. Unset: none, except in development, where warn and above carry one (zap's default).
   */
  stacktraceLevel?: string;
  /** The `time` field's format (zap's time encoders); default ISO 8601 in UTC with milliseconds. */
  timeEncoding?: TimeEncoding;
  /** Bound as `logger` on every line, like logr's WithName. */
  name?: string;
  /** Where lines go (default stdout); mostly for tests. */
  destination?: DestinationStream;
}

export type LogEncoder = "json" | "console";

const LEVELS = new Set(["trace", "debug", "info", "warn", "error", "fatal", "silent"]);

/** A pino logger with controller-runtime's conventions: JSON lines (or zap's console text), `level` as a label. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (options.development ? "debug" : "info");
  checkLevel("level", level);
  const stacktraceLevel = options.stacktraceLevel ?? (options.development ? "warn" : undefined);
  if (stacktraceLevel !== undefined) checkLevel("stacktraceLevel", stacktraceLevel);
  const stackFrom =
    stacktraceLevel === undefined
      ? Number.POSITIVE_INFINITY
      : (levels.values[stacktraceLevel] ?? Number.POSITIVE_INFINITY);
  const encoder = options.encoder ?? (options.development ? "console" : "json");
  if (encoder !== "json" && encoder !== "console") {
    throw new Error(`createLogger: unknown encoder "${String(encoder)}"; use "json" or "console"`);
  }
  const pinoOptions: PinoOptions = {
    level,
    base: options.name ? { logger: options.name } : null,
    timestamp: timestampFunction(options.timeEncoding),
    formatters: { level: (label) => ({ level: label }) },
    hooks: { logMethod: logMethodHook(stackFrom) },
  };
  const out = options.destination ?? destination({ dest: 1, sync: true });
  return pino(pinoOptions, encoder === "console" ? consoleDestination(out) : out);
}

function checkLevel(option: string, level: string): void {
  if (!LEVELS.has(level)) {
    throw new Error(`createLogger: unknown ${option} "${level}"; use one of ${[...LEVELS].join(", ")}`);
  }
}

type LogMethodHook = NonNullable<NonNullable<PinoOptions["hooks"]>["logMethod"]>;

/** Every log call: drops fields equal to bound ones and, from `stackFrom` up, adds the stack trace. */
function logMethodHook(stackFrom: number): LogMethodHook {
  return function (this: PinoLogger, args: unknown[], method: (...a: unknown[]) => void, level: number) {
    dropBoundDuplicates(this, args);
    if (level >= stackFrom) addStacktrace(args);
    method.apply(this, args);
  } as LogMethodHook;
}

/** The merging object of a log call, made if the call has only a message. */
function fieldsOf(args: unknown[]): Record<string, unknown> | undefined {
  const first = args[0];
  if (first && typeof first === "object" && !(first instanceof Error) && !Array.isArray(first)) {
    return first as Record<string, unknown>;
  }
  return undefined;
}

/**
 * `log.info({ name: ct.metadata.name }, ...)` in a reconcile whose logger already carries `name`
 * would print the key twice on one JSON line: a field equal to a bound one is dropped.
 */
function dropBoundDuplicates(logger: PinoLogger, args: unknown[]): void {
  const first = fieldsOf(args);
  if (!first) return;
  const bound = logger.bindings() as Record<string, unknown>;
  let fields: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(first)) {
    if (k in bound && bound[k] === v) {
      fields ??= { ...first };
      delete fields[k];
    }
  }
  if (fields) args[0] = fields;
}

/** The caller's stack, without the logger's own frames (zap's "stacktrace" field). */
function addStacktrace(args: unknown[]): void {
  const frames = (new Error().stack ?? "")
    .split("\n")
    .slice(1)
    .map((l) => l.trim())
    .filter((l) => !/[/\\]node_modules[/\\]pino[/\\]|[/\\]log[/\\](logger|delegating)\.[jt]s:/.test(l));
  const stacktrace = frames.join("\n");
  const first = fieldsOf(args);
  if (first) args[0] = { ...first, stacktrace };
  else if (args[0] instanceof Error) args[0] = { err: args[0], stacktrace };
  else args.unshift({ stacktrace });
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
