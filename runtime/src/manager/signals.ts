let shared: AbortSignal | undefined;

/**
 * An AbortSignal aborted by the first SIGINT or SIGTERM; a second signal exits with code 1
 * (controller-runtime's SetupSignalHandler). Calling it again returns the same signal.
 */
export function setupSignalHandler(): AbortSignal {
  if (shared) return shared;
  const controller = new AbortController();
  shared = controller.signal;
  let received = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    received++;
    if (received === 1) {
      controller.abort(new Error(`received ${sig}`));
    } else {
      process.stderr.write(`received ${sig} again: exiting immediately\n`);
      process.exit(1);
    }
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return shared;
}
