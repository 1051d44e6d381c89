/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP during a command that writes the project. Without a handler the
 * kernel ends the process wherever it is; with this one the signal is seen between JavaScript steps
 * only, and every commit of files (files/staged.ts commitFiles) is one synchronous step. So a signal
 * lands before the commit (nothing written) or after it (all written), never in between; then the
 * process exits as a signalled process would (128 + signal number).
 */
const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"];

let installed = false;

/** Installs the handlers once per process: commands run in-process one after another (tests, make testdata). */
export function exitCleanlyOnSignals(): void {
  if (installed) return;
  installed = true;
  for (const signal of SIGNALS) {
    process.once(signal, () => {
      process.stderr.write(
        `kbts: interrupted (${signal}); files are written all together or not at all, so the project is unchanged or complete\n`,
      );
      // node:os here, not imported: the CLI bundle imports this file, and os would load on every start.
      process.exit(128 + (process.getBuiltinModule("node:os").constants.signals[signal] ?? 0));
    });
  }
  // A signal that arrives during the last synchronous step (the final commit) waits in libuv's signal
  // pipe, which the event loop reads only on another turn; with nothing else to do the process would
  // exit 0 without handling it. One more turn lets the handler above run, so the exit status says
  // the command was interrupted (and the project is complete).
  process.once("beforeExit", () => setImmediate(() => {}));
}
