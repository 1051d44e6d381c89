export {
  generateManifests,
  ManifestErrors,
  type ManifestOptions,
  type ManifestResult,
  VERSION_ANNOTATION,
} from "./generate.js";
