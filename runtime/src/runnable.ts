/**
 * Something the manager starts and stops (controller-runtime's Runnable). Resolves when stopped.
 * It sits below the manager and the servers it runs, so neither needs the other for the contract.
 */
export interface Runnable {
  start(signal: AbortSignal): Promise<void>;
  /** true (default for controllers): start only once this replica is the leader. */
  readonly needLeaderElection?: boolean;
}
