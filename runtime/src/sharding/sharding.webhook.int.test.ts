// Admission forwarding to the shard owner, on kube-apiserver 1.36 with the ShardedListAndWatch gate:
// three replicas sharded by namespace (shardSelector) each cache only their namespaces' ConfigMaps and
// serve the same validating webhook with forwardToShardOwner(). Whichever replica an AdmissionReview
// is sent to, the answer comes from the namespace's owner, which has the namespace in its cache; when
// an owner is SIGKILLed, its namespaces are answered "unavailable" until their new owners take over.
import { mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { request } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Lease, Namespace } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { eventually } from "../internal/testdata/eventually.js";
import { selfSignedServingCertificate, writeServingFiles } from "../tls/selfsigned.js";
import type { AdmissionResponse } from "../webhook/admission.js";
import { FORWARDED_BY_HEADER } from "./forward.js";
import { balancedRanges, contains, fnv1a64, formatRanges, type HashRange, parseRanges } from "./ranges.js";
import { RANGES_ANNOTATION, WEBHOOK_ANNOTATION } from "./shard.js";
import { Replicas } from "./testdata/harness.js";

const LEASE_MS = 3_000;
const RETRY_MS = 500;
const PATH = "/validate--v1-configmap";
const MEMBERS = ["hook-a", "hook-b", "hook-c"];
/**
 * 12 namespaces named alike: FNV-1a hashes them within a sliver of the space, so the members cut
 * their ranges where the cluster's namespaces are (balancedRanges) rather than on a blind ring.
 */
const NAMESPACES = Array.from({ length: 12 }, (_, i) => `team-${i}`);

/** Each member's ranges as the members cut them: at the quantiles of every namespace in the cluster. */
async function expectedRanges(members: string[]): Promise<Map<string, HashRange[]>> {
  const all = await client.list(Namespace);
  return balancedRanges(
    members,
    all.map((n) => fnv1a64(n.metadata?.name ?? "")),
  );
}

let env: Environment;
let client: Client;
let replicas: Replicas;
let certDir: string;
let caCert: string;

interface Answer {
  allowed: boolean;
  by?: string;
  cached?: boolean;
  message?: string;
}

/** POSTs an AdmissionReview for a ConfigMap CREATE in `namespace` straight to a replica's webhook. */
function review(replica: string, namespace: string, headers: Record<string, string> = {}): Promise<Answer> {
  const body = JSON.stringify({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: `${replica}-${namespace}-${Date.now()}`,
      kind: { group: "", version: "v1", kind: "ConfigMap" },
      resource: { group: "", version: "v1", resource: "configmaps" },
      name: "probe",
      namespace,
      operation: "CREATE",
      userInfo: { username: "test" },
      object: { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "probe", namespace } },
    },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port: replicas.port(replica, "webhook"),
        servername: "localhost",
        ca: caCert,
        method: "POST",
        path: PATH,
        headers: { "content-type": "application/json", ...headers },
        timeout: 10_000,
      },
      (res) => {
        let text = "";
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => {
          const response = (JSON.parse(text) as { response: AdmissionResponse }).response;
          const warn = (k: string) =>
            response.warnings?.find((w) => w.startsWith(`${k}=`))?.slice(k.length + 1);
          resolve({
            allowed: response.allowed,
            by: warn("by"),
            cached: warn("cached") === undefined ? undefined : warn("cached") === "true",
            message: response.status?.message,
          });
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The namespace's owner by the ranges the members publish on their Leases now. */
async function publishedOwners(): Promise<Map<string, string>> {
  const leases = await client.list(Lease, { namespace: "shards" });
  const out = new Map<string, string>();
  for (const ns of NAMESPACES) {
    for (const l of leases) {
      if (contains(parseRanges(l.metadata?.annotations?.[RANGES_ANNOTATION]), fnv1a64(ns))) {
        out.set(ns, l.metadata?.name as string);
      }
    }
  }
  return out;
}

/** Waits until each member publishes exactly its ranges of `members`' split, and its webhook address. */
async function settled(members: string[], timeoutMs: number): Promise<void> {
  const ranges = await expectedRanges(members);
  await eventually(
    `ranges published by ${members.join(", ")}`,
    async () => {
      for (const m of members) {
        const lease = await client.get(Lease, { namespace: "shards", name: m });
        const a = lease.metadata?.annotations ?? {};
        if (a[RANGES_ANNOTATION] !== formatRanges(ranges.get(m) ?? [])) return undefined;
        if (a[WEBHOOK_ANNOTATION] !== `127.0.0.1:${replicas.port(m, "webhook")}`) return undefined;
      }
      return true;
    },
    timeoutMs,
    100,
  );
}

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), "kbts-shard-webhook-"));
  const pair = selfSignedServingCertificate(["localhost", "127.0.0.1"], "shard-webhook-test-ca");
  caCert = pair.caCert;
  // One serving Secret for every replica, as mounted in a Deployment; ca.crt lets them verify each other.
  await writeServingFiles(certDir, { certName: "tls.crt", keyName: "tls.key" }, pair);
  await writeFile(join(certDir, "ca.crt"), pair.caCert);
  env = await startEnvironment({ apiServerFlags: { "feature-gates": "ShardedListAndWatch=true" } });
  client = createClient(env.kubeConfig);
  replicas = new Replicas(env.kubeconfigPath, "shardSelector", "webhook-replica.ts", [certDir]);
  await client.create(Namespace, { metadata: { name: "shards" } });
  for (const ns of NAMESPACES) {
    await client.create(Namespace, { metadata: { name: ns } });
    await client.create(ConfigMap, { metadata: { name: "marker", namespace: ns } });
  }
}, 60_000);

afterAll(async () => {
  await replicas?.stopAll();
  await env?.stop();
  if (certDir) rmSync(certDir, { recursive: true, force: true });
});

describe("a webhook that forwards to the shard owner", () => {
  it("is answered by the namespace's owner, from its cache, whichever replica gets the request", async () => {
    for (const m of MEMBERS) replicas.spawn(m);
    await settled(MEMBERS, 30_000);
    const owners = await publishedOwners();
    expect(new Set(owners.values()).size, "every member owns some of the namespaces").toBe(3);
    expect(owners.size).toBe(NAMESPACES.length);
    for (const ns of NAMESPACES) {
      for (const m of MEMBERS) {
        const answer = await review(m, ns);
        expect({ ns, to: m, ...answer }).toEqual({
          ns,
          to: m,
          allowed: true,
          by: owners.get(ns),
          cached: true,
          message: undefined,
        });
      }
    }
    // Each replica answered its own namespaces and forwarded the others, each once; the cut spreads
    // the dozen alike names (a blind ring gave one member all twelve).
    for (const m of MEMBERS) {
      const own = [...owners.values()].filter((o) => o === m).length;
      expect(own, `${m}'s share of the namespaces`).toBeGreaterThanOrEqual(2);
      const series = await replicas.shardMetrics(m, "kbts_webhook_forwarded_total");
      expect(series.get(`kbts_webhook_forwarded_total{webhook="${PATH}",result="forwarded"}`)).toBe(
        NAMESPACES.length - own,
      );
    }
  }, 60_000);

  it("never forwards a forwarded request again: a non-owner answers it unavailable", async () => {
    const owners = await publishedOwners();
    const ns = NAMESPACES[0] as string;
    const other = MEMBERS.find((m) => m !== owners.get(ns)) as string;
    const answer = await review(other, ns, { [FORWARDED_BY_HEADER]: "someone" });
    expect(answer.allowed).toBe(false);
    expect(answer.by).toBeUndefined();
    expect(answer.message).toContain(`namespace "${ns}"`);
    expect(answer.message).toContain("try again");
  }, 20_000);

  it("answers a SIGKILLed owner's namespaces from their new owners after its Lease expires", async () => {
    const before = await publishedOwners();
    const victim = MEMBERS.find((m) => m !== "hook-a" && [...before.values()].includes(m)) as string;
    const orphans = NAMESPACES.filter((ns) => before.get(ns) === victim);
    const survivors = MEMBERS.filter((m) => m !== victim);
    const after = new Map<string, string>();
    for (const [m, rs] of await expectedRanges(survivors)) {
      for (const ns of orphans) if (contains(rs, fnv1a64(ns))) after.set(ns, m);
    }
    const killedAt = await replicas.kill(victim);
    const denials: string[] = [];
    const wrong: string[] = [];
    /** When each orphaned namespace was first answered by its new owner, through each survivor. */
    const firstAnswered = new Map<string, number>();
    // Every orphaned namespace through every survivor, all at once, round after round, until each
    // is answered by its new owner.
    await eventually(
      `${victim}'s namespaces answered by their new owners`,
      async () => {
        await Promise.all(
          orphans.flatMap((ns) =>
            survivors.map(async (m) => {
              const a = await review(m, ns);
              if (!a.allowed) denials.push(a.message ?? "");
              else if (a.by !== after.get(ns) || a.cached !== true) {
                wrong.push(`${ns} via ${m}: by ${a.by}, cached ${a.cached}`);
              } else if (!firstAnswered.has(`${ns} via ${m}`))
                firstAnswered.set(`${ns} via ${m}`, Date.now());
            }),
          ),
        );
        return firstAnswered.size === orphans.length * survivors.length ? true : undefined;
      },
      20_000,
      100,
    );
    expect(wrong, "answers from a replica that does not own the namespace").toEqual([]);
    // During the gap, the answers were "unavailable" denials naming the namespace.
    expect(denials.length).toBeGreaterThan(0);
    for (const d of denials) {
      expect(d).toMatch(/no replica can answer for namespace "team-\d+" now: .*; try again/);
    }
    // Expiry a duration after the victim's last renewal reached the sharder's watch, the takeover
    // then, the new owner's claim as soon as its watch sees the takeover, then its relist; a waiting
    // request is answered as soon as it is ready. The retry and a second are for those steps.
    const last = Math.max(...firstAnswered.values());
    expect(last - killedAt).toBeLessThan(LEASE_MS + RETRY_MS + 1_000);
  }, 60_000);
});
