export { runManifests } from "./command.js";
export {
  generateManifests,
  ManifestErrors,
  type ManifestOptions,
  type ManifestResult,
  VERSION_ANNOTATION,
} from "./generate.js";
export { type WriteOptions, type WriteResult, writeManifests } from "./write.js";
