import { describe, expect, it } from "vitest";
import type { Lease } from "../api/kinds.js";
import type { Member, MemberState } from "./members.js";
import { defaultWebhookAddress, publishedOwner, splitHostPort } from "./owner.js";
import { formatRanges, type HashRange } from "./ranges.js";
import { RANGES_ANNOTATION } from "./shard.js";

function member(name: string, state: MemberState, ranges: HashRange[] | string): Member {
  const lease: Lease = {
    metadata: {
      name,
      annotations: { [RANGES_ANNOTATION]: typeof ranges === "string" ? ranges : formatRanges(ranges) },
    },
  };
  return { name, state, lease, unchangedForMs: 0, expiresAt: 15_000 };
}

describe("publishedOwner", () => {
  it("is the live member whose published ranges hold the hash", () => {
    const members = [member("a", "live", [[0n, 100n]]), member("b", "live", [[100n, 200n]])];
    expect(publishedOwner(members, 150n)?.name).toBe("b");
    expect(publishedOwner(members, 0n)?.name).toBe("a");
  });

  it("is none when no member publishes the hash ([lo, hi) leaves hi out)", () => {
    expect(publishedOwner([member("a", "live", [[0n, 100n]])], 100n)).toBeUndefined();
  });

  it("never picks an expired or dead member: it may not answer at all", () => {
    const members = [member("a", "expired", [[0n, 100n]]), member("b", "dead", [[0n, 100n]])];
    expect(publishedOwner(members, 50n)).toBeUndefined();
  });

  it("picks the lower-named member while two publish one range for a moment", () => {
    const members = [member("c", "live", [[0n, 100n]]), member("b", "live", [[50n, 100n]])];
    expect(publishedOwner(members, 60n)?.name).toBe("b");
  });

  it("skips a member whose annotation it cannot read", () => {
    const members = [member("a", "live", "not ranges"), member("b", "live", [[0n, 100n]])];
    expect(publishedOwner(members, 10n)?.name).toBe("b");
  });
});

describe("the advertised webhook address", () => {
  it("is POD_IP with the listening port in a pod", () => {
    expect(defaultWebhookAddress({ host: "::", port: 9443 }, "10.0.0.7")).toBe("10.0.0.7:9443");
    expect(defaultWebhookAddress({ host: "::", port: 9443 }, "fd00::7")).toBe("[fd00::7]:9443");
  });

  it("is the listening address otherwise, all interfaces read as loopback", () => {
    expect(defaultWebhookAddress({ host: "127.0.0.1", port: 40000 }, undefined)).toBe("127.0.0.1:40000");
    expect(defaultWebhookAddress({ host: "::", port: 40000 }, undefined)).toBe("127.0.0.1:40000");
    expect(defaultWebhookAddress({ host: "0.0.0.0", port: 40000 }, undefined)).toBe("127.0.0.1:40000");
  });

  it("is unknown before the server listens", () => {
    expect(defaultWebhookAddress(undefined, "10.0.0.7")).toBeUndefined();
  });

  it("must be host:port when given", () => {
    expect(splitHostPort("[fd00::1]:9443")).toEqual({ host: "fd00::1", port: 9443 });
    expect(splitHostPort("webhook.ns.svc:443")).toEqual({ host: "webhook.ns.svc", port: 443 });
    expect(() => splitHostPort("10.0.0.7")).toThrow(/sharding.webhookAddress "10.0.0.7" is not "host:port"/);
    expect(() => splitHostPort("fd00::1:9443")).toThrow(/IPv6 host in brackets/);
  });
});
