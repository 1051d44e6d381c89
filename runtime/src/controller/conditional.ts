/**
 * A controller that runs only while every kind it watches is served by the API server: for a kind
 * whose CRD may be installed after the operator, or removed while it runs (controller-runtime #935,
 * #1179, #2983; JOSDK's CRDPresentActivationCondition). Until its kinds are served it waits, asking
 * discovery every `pollIntervalMs`; then it builds a fresh controller (the builder's sources, queue and
 * workers) and starts it; when one of its kinds stops being served it stops that controller and
 * removes the kinds' informers from the cache, so no reflector retries a list of a kind that is gone,
 * and waits again. Discovery (GET /apis/<group>/<version>) needs no RBAC beyond what every
 * authenticated user has.
 */
import { groupKindOf, type Kind } from "../api/kind.js";
import type { Cache } from "../cache/types.js";
import { isNotFound } from "../client/errors.js";
import type { KubeConfig } from "../client/kubeconfig.js";
import { groupVersionPath } from "../client/paths.js";
import { RestClient } from "../client/rest.js";
import { sleepUnlessAborted } from "../internal/sleep.js";
import type { Logger } from "../log/types.js";
import type { Controller } from "./controller.js";
import type { Source } from "./source.js";

export interface WhenServedOptions {
  /** How often discovery is asked whether the kinds are (still) served; default 5 s. */
  pollIntervalMs?: number;
}

export interface ConditionalControllerDeps {
  name: string;
  needLeaderElection: boolean;
  /** The kinds that must be served (for, owns and watches). */
  kinds: readonly Kind[];
  /** A new controller with its sources, for each time the kinds become served. */
  build: () => Controller;
  cache: Cache;
  kubeConfig: KubeConfig;
  logger: Logger;
}

interface APIResourceList {
  resources?: { name: string }[];
}

export class ConditionalController implements Controller {
  readonly name: string;
  readonly needLeaderElection: boolean;
  /** Each activation's controller has its own filter; sources get it from there. */
  readonly ownWriteFilter = undefined;
  private readonly pollMs: number;
  private readonly log: Logger;
  /** The kinds not served at the last look, while the controller waits for them (empty while it runs). */
  private waitingFor: Kind[] = [];

  constructor(
    private readonly deps: ConditionalControllerDeps,
    options: WhenServedOptions = {},
  ) {
    this.name = deps.name;
    this.needLeaderElection = deps.needLeaderElection;
    this.pollMs = options.pollIntervalMs ?? 5_000;
    this.log = deps.logger.child({ controller: deps.name });
  }

  /** For /readyz: which kinds it waits for, or undefined while it runs. Waiting is not unready. */
  readyzNote(): string | undefined {
    if (this.waitingFor.length === 0) return undefined;
    return `waiting for ${this.waitingFor.map(groupKindOf).join(", ")} to be served (CRD not installed)`;
  }

  watch(_source: Source): void {
    throw new Error(
      `controller ${this.name} starts only when its kinds are served, with the watches of its builder; add watches there`,
    );
  }

  async warmUp(): Promise<void> {
    // Nothing to warm: its informers must not exist while its kinds may be missing.
  }

  async start(signal: AbortSignal): Promise<void> {
    const rest = new RestClient(this.deps.kubeConfig);
    try {
      while (!signal.aborted) {
        const missing = await this.unserved(rest, signal).catch((err: unknown) => {
          if (!signal.aborted) this.log.error({ err: String(err) }, "discovery failed; asking again");
          return undefined;
        });
        if (missing === undefined) {
          await sleepUnlessAborted(this.pollMs, signal);
          continue;
        }
        if (missing.length > 0) {
          if (missing.map(groupKindOf).join() !== this.waitingFor.map(groupKindOf).join()) {
            this.log.info({ waitingFor: missing.map(groupKindOf) }, "waiting for kinds to be served");
          }
          this.waitingFor = missing;
          await sleepUnlessAborted(this.pollMs, signal);
          continue;
        }
        this.waitingFor = [];
        await this.runWhileServed(rest, signal);
      }
    } finally {
      rest.close();
    }
  }

  /** Builds and starts the controller; stops it when a kind goes; removes the informers. */
  private async runWhileServed(rest: RestClient, signal: AbortSignal): Promise<void> {
    const stop = new AbortController();
    const runSignal = AbortSignal.any([signal, stop.signal]);
    this.log.info("kinds served; starting");
    // Built inside the promise: a build that throws is a failed activation, not a failed manager.
    const done = Promise.resolve()
      .then(() => this.deps.build().start(runSignal))
      .then(
        () => undefined,
        (err: unknown) => err,
      );
    const watcher = (async () => {
      while (!runSignal.aborted) {
        await sleepUnlessAborted(this.pollMs, runSignal);
        if (runSignal.aborted) return;
        const missing = await this.unserved(rest, runSignal).catch(() => []);
        if (missing.length > 0) {
          this.log.info({ gone: missing.map(groupKindOf) }, "kinds no longer served; stopping");
          stop.abort();
        }
      }
    })();
    const err = await done;
    stop.abort();
    await watcher;
    for (const kind of this.deps.kinds) await this.deps.cache.removeInformer(kind);
    if (err !== undefined && !signal.aborted) {
      this.log.error({ err: String(err) }, "controller failed; starting again once its kinds are served");
      await sleepUnlessAborted(this.pollMs, signal);
    }
  }

  /** The kinds discovery does not list now (one request per group version). */
  private async unserved(rest: RestClient, signal: AbortSignal): Promise<Kind[]> {
    const byGroupVersion = new Map<string, Kind[]>();
    for (const kind of this.deps.kinds) {
      const path = groupVersionPath(kind);
      byGroupVersion.set(path, [...(byGroupVersion.get(path) ?? []), kind]);
    }
    const missing: Kind[] = [];
    for (const [path, kinds] of byGroupVersion) {
      let served: Set<string>;
      try {
        const list = await rest.request<APIResourceList>({ method: "GET", path, signal });
        served = new Set((list.resources ?? []).map((r) => r.name));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        served = new Set();
      }
      missing.push(...kinds.filter((k) => !served.has(k.plural)));
    }
    return missing;
  }
}
