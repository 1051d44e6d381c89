/**
 * The process's logger, as controller-runtime's `ctrl.SetLogger` and `logf.Log.WithName`: a module can
 * make its logger when it loads (a webhook file's `const log = namedLogger("memcached-resource")`),
 * before `cmd/main.ts` has parsed the zap flags, and its lines still follow them once main calls
 * setLogger. Before that (a unit test that never runs main) they go to createLogger()'s defaults:
 * JSON lines at info on stdout.
 */
import { createLogger } from "./logger.js";
import type { Logger } from "./types.js";

let installed: Logger | undefined;
let fallback: Logger | undefined;

/** Makes `logger` the one every namedLogger writes through, including those made earlier. */
export function setLogger(logger: Logger): void {
  installed = logger;
}

function current(): Logger {
  if (installed) return installed;
  fallback ??= createLogger();
  return fallback;
}

/** A logger bound to `{ logger: name }` (logr's WithName) on whatever logger setLogger installs. */
export function namedLogger(name: string): Logger {
  return delegate({ logger: name });
}

type Fields = Record<string, unknown>;

function delegate(bindings: Fields): Logger {
  let base: Logger | undefined;
  let bound: Logger | undefined;
  const target = (): Logger => {
    const now = current();
    if (now !== base || !bound) {
      base = now;
      bound = now.child(bindings);
    }
    return bound;
  };
  const method =
    (level: "info" | "warn" | "error" | "debug") =>
    (fieldsOrMsg: Fields | string, msg?: string): void => {
      const logger = target();
      if (typeof fieldsOrMsg === "string") logger[level](fieldsOrMsg);
      else logger[level](fieldsOrMsg, msg);
    };
  return {
    info: method("info"),
    warn: method("warn"),
    error: method("error"),
    debug: method("debug"),
    child: (more) => delegate({ ...bindings, ...more }),
  };
}
