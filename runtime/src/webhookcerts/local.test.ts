import { describe, expect, it } from "vitest";
import { isLoopbackServer } from "./local.js";

describe("isLoopbackServer: which API servers can call a webhook served by this process", () => {
  it("accepts this machine's addresses", () => {
    for (const url of [
      "https://127.0.0.1:6443",
      "https://127.3.2.1",
      "https://[::1]:443",
      "https://localhost:8443",
    ]) {
      expect(isLoopbackServer(url), url).toBe(true);
    }
  });
  it("refuses any other cluster, and nothing at all", () => {
    for (const url of [
      "https://10.96.0.1:443",
      "https://k8s.example.com",
      "https://127.0.0.1.example.com",
      "",
      "not a url",
    ]) {
      expect(isLoopbackServer(url), url).toBe(false);
    }
    expect(isLoopbackServer(undefined)).toBe(false);
  });
});
