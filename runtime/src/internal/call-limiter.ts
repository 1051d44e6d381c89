/**
 * Runs calls at once while fewer than `max` of the promises they returned are pending; beyond that,
 * later calls wait their turn in arrival order. A call that returns no promise never holds a slot.
 *
 * Why (event handlers): an informer hands its whole initial list to its handlers in one go, 30,000
 * create events in one tick for 30,000 pods. Unbounded, every asynchronous map function started at
 * once, and their awaits ran breadth-first: each call's intermediate results (the budgets it listed,
 * their copies, its request map) lived until all 30,000 calls had reached the same step. They were
 * promoted to V8's old space and died there: a 165 MB heap at sync against 65 MB after, and ~90 MB of
 * freed pages the process kept resident, since V8's memory reducer waits for a quiet moment that a
 * busy operator never has. controller-runtime calls map functions one at a time per handler; a small
 * bound keeps that memory profile and still overlaps map functions that wait on the API server.
 */
export class CallLimiter {
  private running = 0;
  private readonly waiting: Array<(() => void | Promise<void>) | undefined> = [];
  private head = 0;
  private draining = false;

  constructor(private readonly max: number) {
    if (!(max >= 1)) throw new Error(`CallLimiter: max must be at least 1, got ${max}`);
  }

  /**
   * Calls `fn` now when a slot is free and nothing waits, otherwise once one is. Nobody awaits it here
   * (a burst queues only the functions, no promise each): `fn` handles its own errors; a rejection
   * only frees its slot.
   */
  run(fn: () => void | Promise<void>): void {
    if (this.running < this.max && this.head === this.waiting.length) this.begin(fn);
    else this.waiting.push(fn);
  }

  /** Calls waiting for a slot. */
  get backlog(): number {
    return this.waiting.length - this.head;
  }

  private begin(fn: () => void | Promise<void>): void {
    const result = fn();
    if (!result || typeof result.then !== "function") return;
    this.running++;
    const settled = () => {
      this.running--;
      this.drain();
    };
    result.then(settled, settled);
  }

  private drain(): void {
    // A loop, not recursion: a backlog of calls that return no promise runs here in one pass.
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.running < this.max && this.head < this.waiting.length) {
        const next = this.waiting[this.head];
        this.waiting[this.head++] = undefined;
        if (this.head === this.waiting.length) {
          this.waiting.length = 0;
          this.head = 0;
        } else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
          this.waiting.splice(0, this.head);
          this.head = 0;
        }
        if (next) this.begin(next);
      }
    } finally {
      this.draining = false;
    }
  }
}
