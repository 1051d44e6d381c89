export {
  type APIClient,
  type CacheReader,
  type ClientOptions,
  createAPIReader,
  createClient,
  listQuery,
  objectKey,
  type SubResourceClientWithCreate,
  withTypeMeta,
} from "./client.js";
export {
  DEFAULT_SERVICE_ACCOUNT_DIR,
  inClusterNamespace,
  type LoadKubeConfigOptions,
  loadInClusterConfig,
  loadKubeConfig,
  serviceAccountDir,
} from "./config.js";
export * from "./errors.js";
export { getIfExists } from "./get-if-exists.js";
export { type Cluster, type Context, type KubeConfig, LoadedKubeConfig, type User } from "./kubeconfig.js";
export {
  acceptFor,
  PARTIAL_OBJECT_METADATA_ACCEPT,
  PARTIAL_OBJECT_METADATA_LIST_ACCEPT,
  toPartialObjectMetadata,
} from "./metadata.js";
export {
  compareResourceVersions,
  isWriteObservable,
  type ObservedWrite,
  OwnWrites,
  type ResourceVersionWaiter,
  resourceVersionReached,
  type WriteObservable,
  type WriteObserver,
  WriteObservers,
} from "./own-writes.js";
export * from "./patch.js";
export { groupVersionPath, type PathParts, queryString, resourcePath } from "./paths.js";
export {
  type HttpMethod,
  RequestAbortedError,
  RestClient,
  type RestClientOptions,
  type RestRequest,
  type WatchEvent,
  warningsOf,
} from "./rest.js";
export * from "./retry.js";
export * from "./selector.js";
