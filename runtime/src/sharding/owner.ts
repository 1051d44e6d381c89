/**
 * Who answers an admission request about a namespace when webhooks forward to the shard owner, and
 * where it is reached: the pure parts of forwarding (forward.ts does the I/O).
 */

import { RANGES_ANNOTATION } from "./labels.js";
import type { Member } from "./members.js";
import { contains, type HashRange, parseRanges } from "./ranges.js";

/** The hash ranges a member publishes on its Lease (RANGES_ANNOTATION); throws on one it cannot read. */
export function publishedRanges(member: Member): HashRange[] {
  return parseRanges(member.lease.metadata?.annotations?.[RANGES_ANNOTATION]);
}

/**
 * The live member whose published ranges hold `hash`. Members claim a range only once no live or
 * expired member publishes it, so at most one does; should two, for a moment, the lower-named answers.
 * An expired member (it may be dead) is never chosen: forwarding to it would only time out.
 */
export function publishedOwner(members: readonly Member[], hash: bigint): Member | undefined {
  return [...members]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .find((m) => {
      if (m.state !== "live") return false;
      try {
        return contains(publishedRanges(m), hash);
      } catch {
        return false; // an annotation this version cannot read serves nothing here
      }
    });
}

/** "host:port", "[v6]:port": the host (without brackets) and the port. */
export function splitHostPort(address: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  const port = Number(m?.[3]);
  if (!m || !(port > 0 && port < 65536)) {
    throw new Error(
      `sharding.webhookAddress "${address}" is not "host:port" (an IPv6 host in brackets: "[fd00::1]:9443")`,
    );
  }
  return { host: (m[1] ?? m[2]) as string, port };
}

function joinHostPort(host: string, port: number): string {
  return host.includes(":") ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * The webhook address a replica advertises when sharding.webhookAddress is unset: its pod IP (POD_IP,
 * from the downward API) and the port the server listens on; else the address it listens on, with
 * "all interfaces" read as loopback (replicas on one machine, as in tests).
 */
export function defaultWebhookAddress(
  listening: { host: string; port: number } | undefined,
  podIP: string | undefined = process.env.POD_IP,
): string | undefined {
  if (!listening) return undefined;
  if (podIP) return joinHostPort(podIP, listening.port);
  const any = listening.host === "::" || listening.host === "0.0.0.0" || listening.host === "";
  return joinHostPort(any ? "127.0.0.1" : listening.host, listening.port);
}
