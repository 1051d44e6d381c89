/** The scaffolding commands as a library: what the CLI's `init`, `create`, `edit` and `alpha` actions run. */
export { type AlphaGenerateFlags, runAlphaGenerate } from "./alpha-generate.js";
export { runAlphaUpdate } from "./alpha-update.js";
export { type CreateApiFlags, runCreateApi } from "./create-api.js";
export { type CreateWebhookFlags, runCreateWebhook } from "./create-webhook.js";
export { type EditFlags, runEdit } from "./edit.js";
export { type InitFlags, runInit } from "./init.js";
export { NAMESPACED_WEBHOOK_WARNING, type ScaffoldResult } from "./project.js";
