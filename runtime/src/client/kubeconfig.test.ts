import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { RequestOptions } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig as ClientNodeKubeConfig } from "@kubernetes/client-node";
import { afterAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { LoadedKubeConfig } from "./kubeconfig.js";

const dir = mkdtempSync(join(tmpdir(), "kbts-kubeconfig-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const b64 = (s: string) => Buffer.from(s).toString("base64");
mkdirSync(join(dir, "certs"));
writeFileSync(join(dir, "certs", "ca.crt"), "CA FROM FILE");
writeFileSync(join(dir, "certs", "client.crt"), "CERT FROM FILE");
writeFileSync(join(dir, "certs", "client.key"), "KEY FROM FILE");
writeFileSync(join(dir, "token"), "token-from-file");
const exec = join(dir, "credential.sh");
writeFileSync(
  exec,
  `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-token"}}'\n`,
);
chmodSync(exec, 0o755);

/** A one-context kubeconfig file with this cluster and user. */
function file(name: string, cluster: Record<string, unknown>, user: Record<string, unknown>): string {
  const path = join(dir, `${name}.yaml`);
  writeFileSync(
    path,
    stringify({
      apiVersion: "v1",
      kind: "Config",
      clusters: [{ name: "c", cluster: { server: "https://127.0.0.1:6443/", ...cluster } }],
      users: [{ name: "u", user }],
      contexts: [{ name: name, context: { cluster: "c", user: "u", namespace: "ns" } }],
      "current-context": name,
    }),
  );
  return path;
}

/** What a request gets from a kubeconfig: TLS material as text, headers, basic auth. */
async function applied(kc: { applyToHTTPSOptions(o: RequestOptions): Promise<void> }) {
  const opts: RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(opts);
  const text = (v: unknown) => (v === undefined ? undefined : String(v));
  return {
    ca: text(opts.ca),
    cert: text(opts.cert),
    key: text(opts.key),
    servername: opts.servername,
    rejectUnauthorized: opts.rejectUnauthorized,
    headers: opts.headers as Record<string, string>,
    auth: opts.auth,
  };
}

const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  [
    "relative files",
    { "certificate-authority": "certs/ca.crt" },
    { "client-certificate": "certs/client.crt", "client-key": "certs/client.key" },
  ],
  [
    "inline data",
    { "certificate-authority-data": b64("CA DATA") },
    { "client-certificate-data": b64("CERT DATA"), "client-key-data": b64("KEY DATA") },
  ],
  [
    "token, skip-tls-verify, tls-server-name",
    { "insecure-skip-tls-verify": true, "tls-server-name": "api" },
    { token: "t1" },
  ],
  ["token-file and impersonation", {}, { "token-file": join(dir, "token"), as: "jane" }],
  ["basic auth", {}, { username: "admin", password: "secret" }],
  [
    "exec plugin",
    {},
    { exec: { apiVersion: "client.authentication.k8s.io/v1", command: exec, interactiveMode: "Never" } },
  ],
  [
    "tokenFile auth-provider",
    {},
    { "auth-provider": { name: "tokenFile", config: { tokenFile: join(dir, "token") } } },
  ],
  [
    "gcp auth-provider (client-node runs it)",
    {},
    { "auth-provider": { name: "gcp", config: { "access-token": "gcp-t" } } },
  ],
];

describe("LoadedKubeConfig", () => {
  it.each(cases)(
    "applies the same credentials as client-node's KubeConfig: %s",
    async (name, cluster, user) => {
      const path = file(name.replace(/\W+/g, "-"), cluster, user);
      const ours = LoadedKubeConfig.fromFile(path);
      const theirs = new ClientNodeKubeConfig();
      theirs.loadFromFile(path);
      const got = await applied(ours);
      expect(got).toEqual(await applied(theirs));
      // Not vacuous: each case carries some credential.
      expect(got.cert ?? got.headers?.Authorization ?? got.auth).toBeDefined();
      expect(ours.getCurrentCluster()).toEqual(theirs.getCurrentCluster());
      expect(ours.getContextObject(name.replace(/\W+/g, "-"))?.namespace).toBe("ns");
    },
  );

  it("names the file when it cannot be parsed", () => {
    const bad = join(dir, "bad.yaml");
    writeFileSync(bad, "clusters:\n- name: x\n  cluster: {}\n");
    expect(() => LoadedKubeConfig.fromFile(bad)).toThrow(
      `kubeconfig ${bad}: clusters[0].cluster.server is missing`,
    );
    expect(() => LoadedKubeConfig.fromFile(join(dir, "absent.yaml"))).toThrow(
      `kubeconfig ${join(dir, "absent.yaml")}:`,
    );
  });

  it("refuses a name two merged files both define", () => {
    const a = LoadedKubeConfig.fromFile(file("a", {}, { token: "a" }));
    expect(() => a.merge(LoadedKubeConfig.fromFile(file("b", {}, { token: "b" })))).toThrow(
      'kubeconfig: duplicate cluster "c" in KUBECONFIG\'s files',
    );
  });
});
