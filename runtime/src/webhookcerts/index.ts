export {
  LOOPBACK_HOSTS,
  type ServingCertificate,
  selfSignedServingCertificate,
  writeServingFiles,
} from "../tls/selfsigned.js";
export {
  installLocalWebhooks,
  isLoopbackServer,
  type LocalWebhookOptions,
  removeLocalWebhooks,
} from "./local.js";
export { type CertRotationOptions, CertRotator } from "./rotator.js";
export {
  createManagedWebhookServer,
  type ManagedWebhookServer,
  type ManagedWebhookServerOptions,
  type ServingMode,
  servingModeOf,
} from "./serving.js";
