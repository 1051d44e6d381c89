import type { ImageOptions } from "../types.js";

/**
 * What deploy-image/v1-alpha records in PROJECT, and what other commands read back from it: the
 * flags of each kind (alpha generate's replay) and the manager's image variables (the manager.yaml
 * that `edit --namespaced` renders). Apart from the plugin, so the base plugin can read it too.
 */
export const DEPLOY_IMAGE_PLUGIN_KEY = "deploy-image.typescript.kbts.dev/v1-alpha";

/** One kind under the plugin's key (Kubebuilder's ResourceData). */
export interface DeployImageResource {
  group: string;
  domain: string;
  version: string;
  kind: string;
  options: { image: string; containerCommand?: string; containerPort?: string; runAsUser?: string };
}

/** The kinds PROJECT's `plugins` records for deploy-image/v1-alpha, in order. */
export function deployImageResources(plugins: Record<string, unknown> | undefined): DeployImageResource[] {
  const mine = plugins?.[DEPLOY_IMAGE_PLUGIN_KEY] as { resources?: DeployImageResource[] } | undefined;
  return mine?.resources ?? [];
}

/** The image flags PROJECT recorded for a kind, as `create api` takes them. */
export function recordedImageOptions(entry: DeployImageResource | undefined): ImageOptions | undefined {
  const options = entry?.options;
  if (!options?.image) return undefined;
  return {
    image: options.image,
    command: options.containerCommand,
    port: options.containerPort,
    runAsUser: options.runAsUser,
  };
}

/** The variable that carries the image to the controller: MEMCACHED_IMAGE. */
export function imageEnvVar(kind: string): string {
  return `${kind.toUpperCase()}_IMAGE`;
}

/** A YAML scalar for the image: plain when it is safe so, else double-quoted. */
export function yamlScalar(value: string): string {
  return /^[A-Za-z0-9][\w./:@-]*$/.test(value) ? value : JSON.stringify(value);
}

/** The manager container's image variables, as config/manager/manager.yaml lists them (PROJECT's order). */
export function managerImageEnv(
  plugins: Record<string, unknown> | undefined,
): { name: string; value: string }[] {
  return deployImageResources(plugins).map((r) => ({
    name: imageEnvVar(r.kind),
    value: yamlScalar(r.options.image),
  }));
}
