/**
 * zap's console encoder for pino lines (Kubebuilder's --zap-encoder=console, the development default):
 *   2026-12-01T05:00:00.000Z	INFO	setup	starting manager	{"address": ":8081"}
 * time, level in capitals, logger name, message, the other fields as JSON, then the stack trace (if
 * any) on the following lines. Written synchronously, so nothing is lost when the process exits.
 */
import type { DestinationStream } from "pino";

const LEVELS: Record<string, string> = {
  trace: "TRACE",
  debug: "DEBUG",
  info: "INFO",
  warn: "WARN",
  error: "ERROR",
  fatal: "FATAL",
};

/** One pino JSON line as zap's console encoder writes it. */
export function consoleLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith("\n") ? json : `${json}\n`;
  }
  const { time, level, logger, msg, stacktrace, err, ...fields } = entry;
  let errorStack: string | undefined;
  if (err && typeof err === "object") {
    const e = err as { message?: unknown; stack?: unknown };
    fields.error = e.message;
    if (typeof e.stack === "string") errorStack = e.stack;
  } else if (err !== undefined) {
    fields.error = err;
  }
  const parts = [String(time ?? ""), LEVELS[String(level)] ?? String(level).toUpperCase()];
  if (logger !== undefined) parts.push(String(logger));
  parts.push(String(msg ?? ""));
  const keys = Object.keys(fields);
  if (keys.length > 0) {
    // zap's console encoder spaces its JSON: {"a": 1, "b": "x"}.
    parts.push(`{${keys.map((k) => `${JSON.stringify(k)}: ${JSON.stringify(fields[k])}`).join(", ")}}`);
  }
  let line = parts.join("\t");
  const stack = typeof stacktrace === "string" ? stacktrace : errorStack;
  if (stack) line += `\n${stack}`;
  return `${line}\n`;
}

/** A pino destination that writes each line to `out` in zap's console format. */
export function consoleDestination(out: DestinationStream): DestinationStream {
  return { write: (line: string) => out.write(consoleLine(line)) };
}
