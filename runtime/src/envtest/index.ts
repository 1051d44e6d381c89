// @kbts/runtime/envtest: a real etcd + kube-apiserver for tests, as controller-runtime's envtest.
export { type Binaries, compareVersions, findBinary, resolveBinaries } from "./binaries.js";
export { CertificateAuthority, type CertKeyPair } from "./certs.js";
export type { CustomResourceDefinitionLike } from "./crds.js";
export {
  type Environment,
  type EnvironmentOptions,
  kubeconfigYAML,
  parseGoDuration,
  type RestConfig,
  startEnvironment,
} from "./environment.js";
export { EnvtestError } from "./errors.js";
export {
  assetEnvVar,
  BINARY_NAMES,
  type BinaryName,
  DEFAULT_KUBERNETES_VERSION,
  goPlatform,
  storeRoot,
  storeVersionDir,
} from "./store.js";
export type { InstalledWebhooks, WebhookInstallOptions } from "./webhooks.js";
