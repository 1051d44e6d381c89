/**
 * @kbts/runtime/envtest: a real etcd + kube-apiserver for tests, as controller-runtime's envtest.
 *
 *   const env = await startEnvironment({ crdDirectoryPaths: ["config/crd/bases"] });
 *   const client = createClient(env.kubeConfig);   // admin (system:masters) over client certs
 *   ...
 *   await env.stop();   // also done on exit, SIGINT, SIGTERM; a SIGKILL leaves nothing either (tether.ts)
 *
 * Binaries: TEST_ASSET_ETCD / TEST_ASSET_KUBE_APISERVER, $KUBEBUILDER_ASSETS, binaryAssetsDirectory, or
 * the setup-envtest store (`kbts setup-envtest use`). Env knobs as envtest: USE_EXISTING_CLUSTER,
 * KUBEBUILDER_CONTROLPLANE_START_TIMEOUT / _STOP_TIMEOUT (Go durations), KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT.
 */

export { CertificateAuthority, type CertKeyPair } from "../tls/certs.js";
export {
  type Binaries,
  compareVersions,
  findBinary,
  resolveBinaries,
  resolveClusterBinaries,
} from "./binaries.js";
export { CLUSTER_CONTROLLERS, type Cluster, type ClusterOptions } from "./cluster.js";
export type { CustomResourceDefinitionLike } from "./crds.js";
export {
  type Environment,
  type EnvironmentOptions,
  kubeconfigYAML,
  parseGoDuration,
  type RestConfig,
  type StartTimings,
  startEnvironment,
} from "./environment.js";
export { EnvtestError } from "./errors.js";
export {
  type CABundles,
  type HostOperator,
  type HostOperatorOptions,
  isLocalControlPlane,
  scrapeMetrics,
  startOperatorOnHost,
  webhookCABundles,
} from "./host-operator.js";
export { readDocuments, readObjects, type SourcedDoc } from "./manifests.js";
export {
  DEFAULT_NODE_CAPACITY,
  nodesFromEnv,
  parseNodeCapacity,
  type SimulatedNode,
  simulatedNodes,
} from "./nodes.js";
export {
  assetEnvVar,
  BINARY_NAMES,
  type BinaryName,
  CLUSTER_BINARY_NAMES,
  type ClusterBinaryName,
  DEFAULT_KUBERNETES_VERSION,
  goPlatform,
  KWOK_STAGES_FILE,
  KWOK_VERSION,
  storeRoot,
  storeVersionDir,
} from "./store.js";
export type { InstalledWebhooks, WebhookInstallOptions } from "./webhooks.js";
