import { KbtsError } from "../../errors.js";
import type { ResourceModel } from "../../project/resource.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { TemplateFile } from "../../scaffold/template.js";
import { findPlugin } from "../registry.js";
import type { ImageOptions, Plugin, PluginContext } from "../types.js";
import { resourceData } from "../typescript/plugin.js";

/**
 * `deploy-image/v1-alpha`, Kubebuilder's deploy-image plugin: `kbts create api ... --plugins
 * deploy-image/v1-alpha --image IMAGE` runs the project's base plugin (types, controller, CRD
 * kustomization, RBAC roles, PROJECT entry), then writes over its stubs an API with spec.size (and
 * spec.containerPort with --image-container-port) and status conditions, and a controller that deploys
 * the image as a Deployment owned by the custom resource, with a finalizer, events and the Available
 * and Degraded conditions. The image reaches the controller through <KIND>_IMAGE, set in
 * config/manager/manager.yaml. PROJECT records the flags under the plugin's key, so `alpha generate`
 * replays them.
 */
export const DEPLOY_IMAGE_PLUGIN_KEY = "deploy-image.typescript.kbts.dev/v1-alpha";

/** The plugin's templates, each written over the base plugin's stub of the same file. */
const TEMPLATE_SET = "plugins/deploy-image";

/** What PROJECT records per kind, under the plugin's key (Kubebuilder's ResourceData). */
interface DeployImageResource {
  group: string;
  domain: string;
  version: string;
  kind: string;
  options: { image: string; containerCommand?: string; containerPort?: string; runAsUser?: string };
}

/**
 * Checks the plugin's flags, as Kubebuilder's PreScaffold does, before anything is staged: the image
 * is required, the port is 1-65535 and the user id a non-negative integer.
 */
export function checkImageOptions(o: ImageOptions | undefined): ImageOptions {
  const where = "--plugins deploy-image/v1-alpha";
  if (o === undefined || o.image.trim() === "") {
    throw new KbtsError("deploy-image/v1-alpha needs the image to deploy: --image is missing", {
      where: "--image",
      fix: `add --image with the Operand's image, e.g. ${where} --image memcached:1.6.26-alpine3.19`,
    });
  }
  if (/\s/.test(o.image.trim())) {
    throw new KbtsError(`--image ${JSON.stringify(o.image)} is not an image reference`, {
      where: "--image",
      fix: "give one image without spaces, e.g. --image memcached:1.6.26-alpine3.19",
    });
  }
  if (o.port !== undefined) {
    const port = /^\d+$/.test(o.port) ? Number(o.port) : Number.NaN;
    if (!(port >= 1 && port <= 65535)) {
      throw new KbtsError(
        `--image-container-port must be an integer between 1 and 65535, got ${JSON.stringify(o.port)}`,
        {
          where: "--image-container-port",
          fix: "give the port the container listens on, e.g. --image-container-port 11211",
        },
      );
    }
  }
  if (
    o.runAsUser !== undefined &&
    !(/^\d+$/.test(o.runAsUser) && Number(o.runAsUser) <= Number.MAX_SAFE_INTEGER)
  ) {
    throw new KbtsError(`--run-as-user must be a non-negative integer, got ${JSON.stringify(o.runAsUser)}`, {
      where: "--run-as-user",
      fix: "give the container's user id, e.g. --run-as-user 1001",
    });
  }
  if (o.command !== undefined && commandArgs(o.command).length === 0) {
    throw new KbtsError("--image-container-command is empty", {
      where: "--image-container-command",
      fix: 'give the command and its arguments separated by commas, e.g. --image-container-command "memcached,--memory-limit=64,-o,modern,-v"',
    });
  }
  return { ...o, image: o.image.trim() };
}

/** "memcached,--memory-limit=64,-o,modern,-v" as the container's command list (Kubebuilder splits on commas). */
function commandArgs(command: string): string[] {
  return command
    .split(",")
    .map((a) => a.trim())
    .filter((a) => a !== "");
}

/** The variable that carries the image to the controller: MEMCACHED_IMAGE. */
export function imageEnvVar(kind: string): string {
  return `${kind.toUpperCase()}_IMAGE`;
}

/** A YAML scalar for the image: plain when it is safe so, else double-quoted. */
function yamlScalar(value: string): string {
  return /^[A-Za-z0-9][\w./:@-]*$/.test(value) ? value : JSON.stringify(value);
}

/**
 * config/manager/manager.yaml with `<KIND>_IMAGE` in the manager container's env: its value replaced
 * when the variable is there (a re-run with --force and another image), else added under env:
 * (created before `image:` when the container has none).
 */
export function setManagerImageEnv(text: string, name: string, image: string): string {
  const value = yamlScalar(image);
  const existing = new RegExp(`^( +- name: ${name}\\n +value: ).*$`, "m");
  if (existing.test(text)) return text.replace(existing, `$1${value}`);
  const entry = `        - name: ${name}\n          value: ${value}\n`;
  if (/^ {8}env:\n/m.test(text)) return text.replace(/^ {8}env:\n/m, (env) => env + entry);
  const imageLine = /^ {8}image: .*\n/m;
  if (!imageLine.test(text)) {
    throw new KbtsError("config/manager/manager.yaml has no manager container to set the image variable on", {
      where: "config/manager/manager.yaml",
      fix: `add \`- name: ${name}\` with \`value: ${image}\` to the manager container's env by hand, or restore the file`,
    });
  }
  return text.replace(imageLine, (line) => `        env:\n${entry}${line}`);
}

function templateFiles(): TemplateFile[] {
  const file = (path: string, ifExists: TemplateFile["ifExists"]): TemplateFile => ({
    template: `${TEMPLATE_SET}/${path}.hbs`,
    set: TEMPLATE_SET,
    ifExists,
  });
  return [
    file("api/{{groupDir}}{{version}}/{{kindLower}}_types.ts", "overwrite"),
    file("config/samples/{{group}}_{{version}}_{{kindLower}}.yaml", "overwrite"),
    file("internal/controller/{{groupDir}}{{kindLower}}_controller.ts", "overwrite"),
    file("internal/controller/{{groupDir}}{{kindLower}}_controller.test.ts", "overwrite"),
    // Shared by every deploy-image kind of the group: written once, then the user's.
    file("internal/controller/{{groupDir}}conditions.ts", "skip"),
  ];
}

function record(ctx: PluginContext, r: ResourceModel, o: ImageOptions): void {
  const entry: DeployImageResource = {
    group: r.group,
    domain: r.domain,
    version: r.version,
    kind: r.kind,
    options: {
      image: o.image,
      containerCommand: o.command,
      containerPort: o.port,
      runAsUser: o.runAsUser,
    },
  };
  ctx.config.plugins ??= {};
  const mine = (ctx.config.plugins[DEPLOY_IMAGE_PLUGIN_KEY] ?? { resources: [] }) as {
    resources: DeployImageResource[];
  };
  const others = mine.resources.filter(
    (e) => !(e.group === r.group && e.version === r.version && e.kind === r.kind),
  );
  ctx.config.plugins[DEPLOY_IMAGE_PLUGIN_KEY] = { resources: [...others, entry] };
}

/** The image flags PROJECT recorded for a kind, as `create api` takes them (alpha generate's replay). */
export function recordedImageOptions(entry: unknown): ImageOptions | undefined {
  const options = (entry as Partial<DeployImageResource> | undefined)?.options;
  if (!options?.image) return undefined;
  return {
    image: options.image,
    command: options.containerCommand,
    port: options.containerPort,
    runAsUser: options.runAsUser,
  };
}

export function scaffoldDeployImage(
  scaffold: Scaffold,
  data: Record<string, unknown>,
  r: ResourceModel,
  o: ImageOptions,
): void {
  const image = {
    ...o,
    port: o.port ?? "",
    runAsUser: o.runAsUser ?? "",
    command: o.command ?? "",
    commandArgs: commandArgs(o.command ?? ""),
  };
  const all = {
    ...data,
    image,
    imageEnvVar: imageEnvVar(r.kind),
    // A container port's name is an IANA service name: at most 15 characters.
    portName: r.kindLower.slice(0, 15),
  };
  for (const file of templateFiles()) scaffold.template(file, all);
  scaffold.edit("config/manager/manager.yaml", (text) =>
    setManagerImageEnv(text, imageEnvVar(r.kind), o.image),
  );
}

export const deployImagePlugin: Plugin = {
  key: DEPLOY_IMAGE_PLUGIN_KEY,
  description: "Scaffolds an API and a controller that deploys an image (the Operand) as a Deployment",
  async createApi(ctx, resource, options) {
    const image = checkImageOptions(options.image);
    if (!resource.namespaced) {
      throw new KbtsError(
        "deploy-image/v1-alpha deploys the image into the custom resource's namespace: the kind must be namespaced",
        {
          where: "--namespaced",
          fix: "drop --namespaced=false",
        },
      );
    }
    const base = findPlugin(ctx.config.layout?.[0] ?? "typescript/v1");
    if (!base.createApi) throw new Error(`the project's base plugin ${base.key} cannot create APIs`);
    await base.createApi(ctx, resource, options);
    scaffoldDeployImage(ctx.scaffold, resourceData(ctx, resource), resource, image);
    record(ctx, resource, image);
  },
};
