export {
  AdmissionDenied,
  type AdmissionHandler,
  type AdmissionRequest,
  type AdmissionResponse,
  type AdmissionResult,
  type AdmissionRouter,
  type AdmissionStatus,
  allowedResponse,
  denialFromError,
  deniedResponse,
  erroredResponse,
  type GroupVersionKind,
  type GroupVersionResource,
  MAX_ADMISSION_REQUEST_BYTES,
  type Operation,
  serveAdmission,
  type UserInfo,
} from "./admission.js";
export {
  CONVERT_PATH,
  type ConversionRequest,
  type ConversionResponse,
  type ConversionResult,
  conversionRegistryOf,
  convertRequest,
  serveConversion,
} from "./conversion.js";
export {
  type CustomDefaulter,
  type CustomValidator,
  defaultingHandler,
  validatingHandler,
  type Warnings,
} from "./custom.js";
export { jsonPatchDiff } from "./jsonpatch.js";
export {
  createWebhookServer,
  DEFAULT_WEBHOOK_PORT,
  defaultCertDir,
  type HttpsWebhookServer,
  type ServedCertificate,
  type WebhookServerOptions,
} from "./server.js";
export type * from "./types.js";
