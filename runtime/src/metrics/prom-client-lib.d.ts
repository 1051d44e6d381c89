// Types of the prom-client lib/ files metrics/prom.ts imports one by one (prom-client types only its index).
declare module "prom-client/lib/registry.js" {
  import type { Registry } from "prom-client";

  const value: typeof Registry;
  export default value;
}
declare module "prom-client/lib/counter.js" {
  import type { Counter } from "prom-client";

  const value: typeof Counter;
  export default value;
}
declare module "prom-client/lib/gauge.js" {
  import type { Gauge } from "prom-client";

  const value: typeof Gauge;
  export default value;
}
declare module "prom-client/lib/histogram.js" {
  import type { Histogram } from "prom-client";

  const value: typeof Histogram;
  export default value;
}
declare module "prom-client/lib/summary.js" {
  import type { Summary } from "prom-client";

  const value: typeof Summary;
  export default value;
}
declare module "prom-client/lib/metrics/*.js" {
  import type { Registry } from "prom-client";

  const collector: (registry: Registry, config: Record<string, unknown>) => void;
  export default collector;
}
