import { randomBytes } from "node:crypto";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { CertificateAuthority } from "./certs.js";

/** A serving certificate, its key and the CA a client must trust for it (PEM). */
export interface ServingCertificate {
  cert: string;
  key: string;
  caCert: string;
}

/** The names a process on this machine is reached by. */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "::1"];

/** A fresh CA and a serving certificate it signs for hosts (DNS names or IPs). */
export function selfSignedServingCertificate(hosts: string[], caName: string): ServingCertificate {
  const ca = CertificateAuthority.create(caName, { organizations: ["kbts"] });
  const pair = ca.issue({ commonName: hosts[0] ?? "localhost", hosts, usage: "server" });
  return { cert: pair.cert, key: pair.key, caCert: ca.cert };
}

/**
 * Writes the pair where the webhook server's certificate watcher reads it. Each file is written beside
 * its final name and renamed over it, so the watcher never reads half a file.
 */
export async function writeServingFiles(
  dir: string,
  names: { certName: string; keyName: string },
  pair: { cert: string; key: string },
): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // The key first: a watcher that sees the new cert with the old key keeps the old pair and retries.
  for (const [name, data] of [
    [names.keyName, pair.key],
    [names.certName, pair.cert],
  ] as const) {
    const tmp = join(dir, `.${name}.${randomBytes(4).toString("hex")}`);
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, join(dir, name));
  }
}
