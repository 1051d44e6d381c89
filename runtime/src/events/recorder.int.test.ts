import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigMap, Event as EventKind } from "../api/kinds.js";
import { createClient } from "../client/client.js";
import type { Client } from "../client/types.js";
import { type Environment, startEnvironment } from "../envtest/index.js";
import { createEventRecorder } from "./index.js";

describe("event recorder against a real API server", () => {
  let env: Environment;
  let client: Client;

  beforeAll(async () => {
    env = await startEnvironment();
    client = createClient(env.kubeConfig);
  });
  afterAll(async () => {
    await env?.stop();
  });

  it("writes Events and aggregates repeats into one Event's count", async () => {
    const cm = await client.create(ConfigMap, {
      metadata: { name: "watched", namespace: "default" },
      data: { a: "1" },
    });
    const recorder = createEventRecorder(client, "kbts-int-test");
    for (let i = 0; i < 4; i++) recorder.event(cm, "Warning", "ReconcileFailed", "quota exceeded");
    recorder.event(cm, "Normal", "Synced", "all good");
    await recorder.flush();

    const events = await client.list(EventKind, { namespace: "default" });
    const mine = events.filter((e) => e.involvedObject.uid === cm.metadata?.uid);
    expect(mine.map((e) => [e.reason, e.type, e.count]).sort()).toEqual([
      ["ReconcileFailed", "Warning", 4],
      ["Synced", "Normal", 1],
    ]);
    const failed = mine.find((e) => e.reason === "ReconcileFailed");
    expect(failed).toMatchObject({
      message: "quota exceeded",
      source: { component: "kbts-int-test" },
      involvedObject: { kind: "ConfigMap", name: "watched", namespace: "default", apiVersion: "v1" },
    });
    expect(Date.parse(failed?.lastTimestamp ?? "")).toBeGreaterThanOrEqual(
      Date.parse(failed?.firstTimestamp ?? ""),
    );
  });
});
