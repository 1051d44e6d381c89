import type { Logger } from "../log/types.js";

/** A logger that drops everything: the default when the caller gives none. */
export const nopLogger: Logger = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  child() {
    return nopLogger;
  },
};
