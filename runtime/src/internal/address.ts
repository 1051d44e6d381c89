import type { AddressInfo } from "node:net";

/**
 * A listening address as Go prints one ("127.0.0.1:8081", "[::]:8081"), so a log line reads
 * `address: ":8081"`-like instead of an object.
 */
export function formatAddress(
  address: AddressInfo | { host: string; port: number } | string | null | undefined,
): string {
  if (!address) return "";
  if (typeof address === "string") return address;
  const host = "address" in address ? address.address : address.host;
  return `${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}
