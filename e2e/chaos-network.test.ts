// The chaos e2e (e2e/chaos/e2e.ts) for latency, resets, a black hole and frozen connections at the proxy.
import { describeChaos } from "./chaos/e2e.js";

describeChaos("network");
