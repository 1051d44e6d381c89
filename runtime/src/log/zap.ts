/**
 * Kubebuilder's zap flags (controller-runtime's zap.Options.BindFlags), mapped onto pino:
 *   --zap-devel             development defaults: console encoder, debug level, stack traces from warn
 *                           (otherwise JSON, info, stack traces from error)
 *   --zap-encoder           json | console
 *   --zap-log-level         debug | info | error | panic, or an integer > 0: zap's V-level, 1 = debug,
 *                           2 and more = pino's trace (everything); panic = pino's fatal
 *   --zap-stacktrace-level  info | error | panic: lines at and above it carry a `stacktrace` field
 *   --zap-time-encoding     epoch | millis | nano | iso8601 | rfc3339 | rfc3339nano
 * Values are case-insensitive, as in controller-runtime; a bad one is an error naming the flag and
 * what it accepts.
 */
import type { LogEncoder, LoggerOptions } from "./logger.js";
import { TIME_ENCODINGS, type TimeEncoding } from "./time.js";

/** parseArgs options for the zap flags; `development` is --zap-devel's default (Kubebuilder's scaffold: true). */
export function zapFlagOptions(defaults: { development?: boolean } = {}) {
  return {
    "zap-devel": { type: "boolean", default: defaults.development ?? false },
    "zap-encoder": { type: "string" },
    "zap-log-level": { type: "string" },
    "zap-stacktrace-level": { type: "string" },
    "zap-time-encoding": { type: "string" },
  } as const;
}

/** The zap flags' parsed values (a parseArgs result with zapFlagOptions fits). */
export interface ZapFlagValues {
  "zap-devel"?: boolean;
  "zap-encoder"?: string;
  "zap-log-level"?: string;
  "zap-stacktrace-level"?: string;
  "zap-time-encoding"?: string;
}

/** A zap flag given a value it does not accept; the message names the flag and the accepted values. */
export class ZapFlagError extends Error {
  constructor(
    readonly flag: string,
    readonly value: string,
    accepted: string,
  ) {
    super(`invalid value "${value}" for flag --${flag}: use ${accepted}`);
    this.name = "ZapFlagError";
  }
}

const ZAP_LEVELS: Record<string, string> = { debug: "debug", info: "info", error: "error", panic: "fatal" };
const ZAP_STACKTRACE_LEVELS: Record<string, string> = { info: "info", error: "error", panic: "fatal" };

function logLevel(value: string): string {
  const named = ZAP_LEVELS[value.toLowerCase()];
  if (named) return named;
  if (/^\+?\d+$/.test(value.trim()) && Number(value) > 0) return Number(value) === 1 ? "debug" : "trace";
  throw new ZapFlagError(
    "zap-log-level",
    value,
    "one of debug, info, error, panic, or an integer > 0 (more verbose as it grows)",
  );
}

function stacktraceLevel(value: string): string {
  const level = ZAP_STACKTRACE_LEVELS[value.toLowerCase()];
  if (!level) throw new ZapFlagError("zap-stacktrace-level", value, "one of info, error, panic");
  return level;
}

function encoder(value: string): LogEncoder {
  const v = value.toLowerCase();
  if (v !== "json" && v !== "console") throw new ZapFlagError("zap-encoder", value, "one of json, console");
  return v;
}

function timeEncoding(value: string): TimeEncoding {
  const v = value.toLowerCase();
  // controller-runtime's help says "nano" and its parser takes "nanos": both are accepted.
  const encoding = v === "nanos" ? "nano" : v;
  if (!(TIME_ENCODINGS as readonly string[]).includes(encoding)) {
    throw new ZapFlagError("zap-time-encoding", value, `one of ${TIME_ENCODINGS.join(", ")}`);
  }
  return encoding as TimeEncoding;
}

/** createLogger options from the zap flags (controller-runtime's zap.New(zap.UseFlagOptions(&opts))). */
export function zapLoggerOptions(values: ZapFlagValues): LoggerOptions {
  const options: LoggerOptions = { development: values["zap-devel"] ?? false };
  const enc = values["zap-encoder"];
  if (enc !== undefined) options.encoder = encoder(enc);
  const level = values["zap-log-level"];
  if (level !== undefined) options.level = logLevel(level);
  const stack = values["zap-stacktrace-level"];
  // Without the flag, zap's defaults: warn in development, error otherwise.
  options.stacktraceLevel =
    stack !== undefined ? stacktraceLevel(stack) : options.development ? "warn" : "error";
  const time = values["zap-time-encoding"];
  if (time !== undefined) options.timeEncoding = timeEncoding(time);
  return options;
}
