/**
 * The few DER (ASN.1) encodings an X.509 certificate needs. Node can make keys and signatures but has
 * no certificate builder; this is smaller than a library that needs a global reflect-metadata polyfill.
 */

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV: tag byte, DER length, content. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
export const boolean = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
export const octetString = (content: Buffer): Buffer => tlv(0x04, content);
export const utf8String = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
/** BIT STRING with no unused bits (signatures, key material). */
export const bitString = (content: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
/** [n] EXPLICIT, constructed. */
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);
/** [n] IMPLICIT, primitive (e.g. GeneralName dNSName [2], iPAddress [7]). */
export const implicitPrimitive = (n: number, content: Buffer): Buffer => tlv(0x80 | n, content);

/** A non-negative INTEGER from big-endian bytes (adds a leading zero when the top bit is set). */
export function unsignedInteger(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  let content = bytes.subarray(i);
  if ((content[0] ?? 0) & 0x80) content = Buffer.concat([Buffer.from([0]), content]);
  return tlv(0x02, content);
}

export const smallInteger = (n: number): Buffer => unsignedInteger(Buffer.from([n]));

export function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const [a = 0, b = 0, ...rest] = parts;
  const out: number[] = [a * 40 + b];
  for (const p of rest) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime after, as RFC 5280 requires. */
export function time(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-11-29T18:00:00.000Z
  const digits = iso.slice(0, 19).replace(/[-:T]/g, "");
  return d.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, "ascii"))
    : tlv(0x18, Buffer.from(`${digits}Z`, "ascii"));
}
