import { createPrivateKey, X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { CertificateAuthority } from "./certs.js";

describe("CertificateAuthority", () => {
  it("issues a serving certificate that Node verifies against the CA, with the requested SANs", () => {
    const ca = CertificateAuthority.create();
    const pair = ca.issue({
      commonName: "localhost",
      hosts: ["localhost", "127.0.0.1", "::1"],
      usage: "server",
    });
    const caCert = new X509Certificate(ca.cert);
    const cert = new X509Certificate(pair.cert);
    expect(caCert.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.checkIssued(caCert)).toBe(true);
    expect(cert.verify(caCert.publicKey)).toBe(true);
    expect(cert.subjectAltName).toBe("DNS:localhost, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1");
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1"]);
    expect(cert.checkPrivateKey(createPrivateKey(pair.key))).toBe(true);
  });

  it("puts groups in O and the user in CN of a client certificate", () => {
    const ca = CertificateAuthority.create("client-ca");
    const pair = ca.issue({ commonName: "admin", organizations: ["system:masters"], usage: "client" });
    const cert = new X509Certificate(pair.cert);
    expect(cert.subject).toBe("O=system:masters\nCN=admin");
    expect(cert.issuer).toBe("O=envtest\nCN=client-ca");
    expect(cert.keyUsage).toEqual(["1.3.6.1.5.5.7.3.2"]);
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  it("does not verify against another CA", () => {
    const pair = CertificateAuthority.create().issue({ commonName: "x", usage: "server" });
    const other = new X509Certificate(CertificateAuthority.create().cert);
    expect(new X509Certificate(pair.cert).verify(other.publicKey)).toBe(false);
  });
});
