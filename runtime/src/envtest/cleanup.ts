/**
 * Last-resort cleanup: when the process exits or is interrupted before stop() ran (a failing test, Ctrl-C),
 * kill every control-plane process group still running and remove its temp dirs, synchronously.
 */
export interface Disposable {
  disposeNow(): void;
}

const live = new Set<Disposable>();
let installed = false;

function disposeAll(): void {
  for (const d of live) {
    try {
      d.disposeNow();
    } catch {
      // best effort: the process is going away
    }
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  // Another listener owns this signal (e.g. `kbts envtest start` stops gracefully): leave it to them;
  // the exit hook still catches anything they forget.
  if (process.listenerCount(signal) > 1) return;
  disposeAll();
  process.removeListener(signal, onSignal);
  process.kill(process.pid, signal);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", disposeAll);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
}

export function track(d: Disposable): void {
  install();
  live.add(d);
}

export function untrack(d: Disposable): void {
  live.delete(d);
}
