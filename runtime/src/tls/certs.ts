import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
} from "node:crypto";
import { isIP } from "node:net";
import * as der from "./der.js";

/** A PEM certificate and its PEM (PKCS#8) private key. */
export interface CertKeyPair {
  cert: string;
  key: string;
}

export interface IssueOptions {
  commonName: string;
  /** Subject O= values; for client certs the API server reads them as the user's groups. */
  organizations?: string[];
  /** DNS names and IP addresses for the subjectAltName extension. */
  hosts?: string[];
  usage: "server" | "client";
  /** How long the certificate is valid; the CA's validity (one week by default) when unset. */
  validityMs?: number;
}

export interface CertificateAuthorityOptions {
  /** Subject O= values (default ["envtest"]). */
  organizations?: string[];
  /** How long the CA and, by default, what it issues are valid (one week). */
  validityMs?: number;
}

const VALIDITY_MS = 168 * 3600 * 1000; // envtest's TinyCA: one week
const ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
const OID = {
  commonName: "2.5.4.3",
  organization: "2.5.4.10",
  subjectKeyIdentifier: "2.5.29.14",
  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  basicConstraints: "2.5.29.19",
  authorityKeyIdentifier: "2.5.29.35",
  extKeyUsage: "2.5.29.37",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
};

function name(commonName: string, organizations: string[] = []): Buffer {
  const rdn = (type: string, value: string) => der.set(der.sequence(der.oid(type), der.utf8String(value)));
  return der.sequence(...organizations.map((o) => rdn(OID.organization, o)), rdn(OID.commonName, commonName));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

/** keyUsage bits are numbered from the most significant bit; DER wants the unused low bits counted. */
function keyUsage(bits: number[]): Buffer {
  let byte = 0;
  for (const b of bits) byte |= 0x80 >> b;
  let unused = 0;
  while (unused < 8 && !(byte & (1 << unused))) unused++;
  return der.tlv(0x03, Buffer.from([unused, byte]));
}

function generalNames(hosts: string[]): Buffer {
  return der.sequence(
    ...hosts.map((h) => {
      const family = isIP(h);
      if (family === 4) return der.implicitPrimitive(7, Buffer.from(h.split(".").map(Number)));
      if (family === 6) return der.implicitPrimitive(7, ipv6Bytes(h));
      return der.implicitPrimitive(2, Buffer.from(h, "ascii"));
    }),
  );
}

function ipv6Bytes(ip: string): Buffer {
  const [head = "", tail = ""] = ip.split("::");
  const h = head ? head.split(":") : [];
  const t = ip.includes("::") && tail ? tail.split(":") : [];
  const groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return Buffer.from(groups.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

function newKey(): { privateKey: KeyObject; spki: Buffer; keyId: Buffer } {
  return keyOf(generateKeyPairSync("ec", { namedCurve: "prime256v1" }).privateKey);
}

function keyOf(privateKey: KeyObject): { privateKey: KeyObject; spki: Buffer; keyId: Buffer } {
  const spki = createPublicKey(privateKey).export({ type: "spki", format: "der" });
  return { privateKey, spki, keyId: createHash("sha1").update(spki).digest() };
}

function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return der.unsignedInteger(bytes);
}

function toPem(label: string, body: Buffer): string {
  const b64 = body.toString("base64").replace(/.{1,64}/g, "$&\n");
  return `-----BEGIN ${label}-----\n${b64}-----END ${label}-----\n`;
}

interface Signer {
  subject: Buffer;
  privateKey: KeyObject;
  keyId: Buffer;
}

function certificate(options: {
  subject: Buffer;
  spki: Buffer;
  keyId: Buffer;
  issuer: Signer | "self";
  selfKey: KeyObject;
  extensions: Buffer[];
  validityMs: number;
}): string {
  const issuer: Signer =
    options.issuer === "self"
      ? { subject: options.subject, privateKey: options.selfKey, keyId: options.keyId }
      : options.issuer;
  const algorithm = der.sequence(der.oid(ECDSA_WITH_SHA256));
  const now = Date.now();
  const tbs = der.sequence(
    der.explicit(0, der.smallInteger(2)),
    serialNumber(),
    algorithm,
    issuer.subject,
    der.sequence(der.time(new Date(now - 60_000)), der.time(new Date(now + options.validityMs))),
    options.subject,
    options.spki,
    der.explicit(
      3,
      der.sequence(
        extension(OID.subjectKeyIdentifier, false, der.octetString(options.keyId)),
        extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicitPrimitive(0, issuer.keyId))),
        ...options.extensions,
      ),
    ),
  );
  const signature = sign("sha256", tbs, issuer.privateKey); // ECDSA signatures are DER-encoded by default
  return toPem("CERTIFICATE", der.sequence(tbs, algorithm, der.bitString(signature)));
}

/** A throw-away certificate authority, like envtest's TinyCA (ECDSA P-256, valid one week). */
export class CertificateAuthority {
  readonly cert: string;
  private readonly signer: Signer;
  private readonly validityMs: number;

  private constructor(cert: string, signer: Signer, validityMs: number) {
    this.cert = cert;
    this.signer = signer;
    this.validityMs = validityMs;
  }

  /** The CA's PEM (PKCS#8) private key, to keep the CA across restarts (see load). */
  get key(): string {
    return this.signer.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  }

  static create(
    commonName = "envtest-environment",
    options: CertificateAuthorityOptions = {},
  ): CertificateAuthority {
    const { privateKey, spki, keyId } = newKey();
    const validityMs = options.validityMs ?? VALIDITY_MS;
    const subject = name(commonName, options.organizations ?? ["envtest"]);
    const cert = certificate({
      subject,
      spki,
      keyId,
      issuer: "self",
      selfKey: privateKey,
      extensions: [
        extension(OID.basicConstraints, true, der.sequence(der.boolean(true))),
        extension(OID.keyUsage, true, keyUsage([0, 5])), // digitalSignature, keyCertSign
      ],
      validityMs,
    });
    return new CertificateAuthority(cert, { subject, privateKey, keyId }, validityMs);
  }

  /**
   * A CA made earlier by create() with the same commonName and options, from its PEM certificate and
   * key: the issuer name and key id are rebuilt exactly, so what it issues chains to the stored cert.
   */
  static load(
    commonName: string,
    pem: { cert: string; key: string },
    options: CertificateAuthorityOptions = {},
  ): CertificateAuthority {
    const { privateKey, keyId } = keyOf(createPrivateKey(pem.key));
    const subject = name(commonName, options.organizations ?? ["envtest"]);
    return new CertificateAuthority(
      pem.cert,
      { subject, privateKey, keyId },
      options.validityMs ?? VALIDITY_MS,
    );
  }

  issue(options: IssueOptions): CertKeyPair {
    const { privateKey, spki, keyId } = newKey();
    const extensions = [
      extension(OID.basicConstraints, true, der.sequence()),
      extension(OID.keyUsage, true, keyUsage([0, 2])), // digitalSignature, keyEncipherment
      extension(
        OID.extKeyUsage,
        false,
        der.sequence(der.oid(options.usage === "server" ? OID.serverAuth : OID.clientAuth)),
      ),
    ];
    if (options.hosts && options.hosts.length > 0) {
      extensions.push(extension(OID.subjectAltName, false, generalNames(options.hosts)));
    }
    const cert = certificate({
      subject: name(options.commonName, options.organizations),
      spki,
      keyId,
      issuer: this.signer,
      selfKey: privateKey,
      extensions,
      validityMs: options.validityMs ?? this.validityMs,
    });
    return { cert, key: privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
  }
}

/** An ECDSA key pair for signing service-account tokens (PEM private key + PEM public key). */
export function serviceAccountSigningKey(): { key: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  return {
    key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicKey: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}
