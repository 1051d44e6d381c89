export {
  CacheNotStartedError,
  type CreateCacheOptions,
  createCache,
  DEFAULT_SYNC_PERIOD_MS,
  fieldIndexName,
  InformerCache,
  KindNotServedError,
  type StalledWatch,
} from "./cache.js";
export {
  deepCopyJSON,
  deepFreeze,
  dropManagedFields,
  freezeAndMeasure,
  jitteredResyncPeriod,
  SharedInformer,
  type SharedInformerOptions,
} from "./informer.js";
export {
  backoffDelay,
  defaultReflectorTuning,
  Reflector,
  type ReflectorOptions,
  type ReflectorSink,
  type ReflectorStats,
  type ReflectorTuning,
} from "./reflector.js";
export {
  type KindScope,
  scopeFor,
  transformKey,
  unscopedCacheWarning,
  validateCacheOptions,
} from "./scope.js";
export { keyOf, NAMESPACE_INDEX, Store, storeKey } from "./store.js";
