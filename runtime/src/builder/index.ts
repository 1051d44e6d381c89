export * from "./builder.js";
export {
  mutatingWebhookPath,
  validatingWebhookPath,
  type WebhookBuilder,
  type WebhookHost,
  webhookManagedBy,
} from "./webhook.js";
