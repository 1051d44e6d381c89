import { describe, expect, it } from "vitest";
import { createRateLines } from "./rate.js";

describe("createRateLines", () => {
  it("states the goal when the webhook was called for every pod of the 'on' run", () => {
    expect(createRateLines({ pods: 100, rateOff: 200, rateOn: 190, callsOn: 100 })).toEqual([
      "create rate: 200 pods/s with the webhook off, 190 pods/s on (0.95x; goal >= 0.9x: met)",
      "webhook calls while creating 100 pods with it on: 100",
    ]);
    expect(createRateLines({ pods: 100, rateOff: 200, rateOn: 100, callsOn: 103 })[0]).toBe(
      "create rate: 200 pods/s with the webhook off, 100 pods/s on (0.50x; goal >= 0.9x: not met)",
    );
  });

  it("says the goal was not measured when pods bypassed the webhook", () => {
    for (const callsOn of [0, 99]) {
      const [rate] = createRateLines({ pods: 100, rateOff: 200, rateOn: 199, callsOn });
      expect(rate).toBe(
        `create rate: 200 pods/s with the webhook off, 199 pods/s on; goal not measured: ${callsOn} webhook calls for 100 pods (give --enforcement Deny, so every pod is sent to the webhook)`,
      );
      expect(rate).not.toContain("goal >=");
    }
  });
});
