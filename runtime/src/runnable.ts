/**
 * Something the manager starts and stops (controller-runtime's Runnable). Resolves when stopped.
 * It sits below the manager and the servers it runs, so neither needs the other for the contract.
 */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
  /** true (default for controllers): start only once this replica is the leader. */
  readonly needLeaderElection?: boolean;
  /**
   * For leader-only runnables: start what can run before leading (a controller's informers), so a
   * replica that takes over starts on a synced cache (controller-runtime's warmupRunnable). Called
   * by the manager before this replica leads when warm-up is enabled; must not wait for sync.
   */
  warmUp?(signal: AbortSignal): Promise<void>;
  /** Whether the manager calls warmUp; undefined: ManagerOptions.enableWarmup decides. */
  readonly enableWarmup?: boolean;
}
