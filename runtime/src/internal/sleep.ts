/**
 * The runtime's one sleep: waits `ms`, or less when `signal` aborts (already aborted: resolves at
 * once). Loops that must stop promptly on shutdown sleep with this and then check `signal.aborted`
 * themselves.
 */
export function sleepUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}
