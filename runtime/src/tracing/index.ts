export { type TracerProviderLike, useTracerProvider } from "./tracing.js";
