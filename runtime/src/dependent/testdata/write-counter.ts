/**
 * Counts the API writes a client sends, per "verb Kind" ("apply ConfigMap", "patch App/status"): the
 * dependents' integration tests and bench/dependents prove "no write in steady state" with it.
 */
import type { Kind } from "../../api/kind.js";
import type { APIClient } from "../../client/client.js";
import type { Client } from "../../client/types.js";

const WRITES = ["create", "update", "patch", "apply", "delete"] as const;

export class WriteCounter {
  readonly counts = new Map<string, number>();
  get total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }
  of(what: string): number {
    return this.counts.get(what) ?? 0;
  }
  count(verb: string, kind: Kind, subresource?: string): void {
    const what = `${verb} ${kind.kind}${subresource ? `/${subresource}` : ""}`;
    this.counts.set(what, this.of(what) + 1);
  }
  /** Wraps a client so every write through it (object or subresource) is counted. */
  wrap(client: APIClient): Client {
    const counter = this;
    const wrapWrites = <C extends object>(target: C, subresource?: string): C =>
      new Proxy(target, {
        get(t, prop, receiver) {
          const value = Reflect.get(t, prop, receiver);
          if (typeof value !== "function") return value;
          if ((WRITES as readonly string[]).includes(prop as string)) {
            return (kind: Kind, ...rest: unknown[]) => {
              counter.count(prop as string, kind, subresource);
              return (value as (...a: unknown[]) => unknown).call(t, kind, ...rest);
            };
          }
          if (prop === "status") return () => wrapWrites(client.status(), "status");
          if (prop === "subResource") return (name: string) => wrapWrites(client.subResource(name), name);
          // A write-guarded view would write around the counter: the counting client has none.
          if (prop === "withWriteGuard") return undefined;
          return value.bind(t);
        },
      });
    return wrapWrites(client as Client);
  }
}
