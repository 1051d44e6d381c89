import { isMap, isScalar, isSeq, type Node, visit, type YAMLMap } from "yaml";
import { KbtsError } from "../../errors.js";
import type { ResourceModel } from "../../project/resource.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import type { TemplateFile } from "../../scaffold/template.js";
import { documents, indentAt, insertLinesAfter, insertLinesBefore } from "../../scaffold/yaml-edit.js";
import { findPlugin } from "../registry.js";
import type { ImageOptions, Plugin, PluginContext } from "../types.js";
import { resourceData } from "../typescript/plugin.js";
import { DEPLOY_IMAGE_PLUGIN_KEY, type DeployImageResource, imageEnvVar, yamlScalar } from "./record.js";

export { DEPLOY_IMAGE_PLUGIN_KEY } from "./record.js";

/**
 * `deploy-image/v1-alpha`, Kubebuilder's deploy-image plugin: `kbts create api ... --plugins
 * deploy-image/v1-alpha --image IMAGE` runs the project's base plugin (types, controller, CRD
 * kustomization, RBAC roles, PROJECT entry), then writes over its stubs an API with spec.size (and
 * spec.containerPort with --image-container-port) and status conditions, and a controller that deploys
 * the image as a Deployment owned by the custom resource: one dependent resource of @kbts/runtime's
 * dependentsController (server-side applied, no write in steady state, Ready / Progressing / Degraded
 * conditions from the workflow, events when it is written or fails). The image reaches the controller through <KIND>_IMAGE, set in
 * config/manager/manager.yaml. PROJECT records the flags under the plugin's key, so `alpha generate`
 * replays them.
 */

/** The plugin's templates, each written over the base plugin's stub of the same file. */
const TEMPLATE_SET = "plugins/deploy-image";

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

/**
 * config/manager/manager.yaml with `<KIND>_IMAGE` in the manager container's env: its value replaced
 * when the variable is there (a re-run with --force and another image), else added after the image
 * variables already there, first under env: (created before `image:` when the container has none).
 * That is where the init template puts them (managerImageEnv), so `edit --namespaced` finds its lines.
 */
export function setManagerImageEnv(text: string, name: string, image: string): string {
  const path = "config/manager/manager.yaml";
  const value = yamlScalar(image);
  const manager = managerContainer(path, text);
  if (manager === undefined) {
    throw new KbtsError("config/manager/manager.yaml has no manager container to set the image variable on", {
      where: path,
      fix: `add \`- name: ${name}\` with \`value: ${value}\` to the manager container's env by hand, or restore the file`,
    });
  }
  const entry = `- name: ${name}\n  value: ${value}`;
  const env = manager.get("env", true);
  if (isSeq(env) && env.items.length > 0) {
    const items = env.items as YAMLMap[];
    const mine = items.find((i) => isMap(i) && i.get("name") === name)?.get("value", true);
    if (isScalar(mine) && mine.range) {
      const [start, stop] = mine.range;
      return text.slice(start, stop) === value ? text : text.slice(0, start) + value + text.slice(stop);
    }
    // After the image variables already there (PROJECT's order), before the others.
    const images = items.findIndex((i) => !(isMap(i) && /^\w+_IMAGE$/.test(String(i.get("name")))));
    const first = items[0]?.range?.[0] ?? 0;
    const indent = indentAt(text, first);
    if (images === 0) {
      // Right under `env:`, above a comment that leads the first variable.
      const envKey = manager.items.find((p) => isScalar(p.key) && p.key.value === "env")?.key as Node;
      return insertLinesAfter(text, (envKey.range?.[1] ?? first) - 1, indent, entry);
    }
    const last = items[images < 0 ? items.length - 1 : images - 1]?.range?.[1] ?? first;
    return insertLinesAfter(text, last - 1, indent, entry);
  }
  const imageKey = manager.items.find((p) => isScalar(p.key) && p.key.value === "image")?.key as
    | Node
    | undefined;
  const at = imageKey?.range?.[0];
  if (at === undefined)
    throw new KbtsError("config/manager/manager.yaml: the manager container has no image", {
      where: path,
      fix: "restore its image: line",
    });
  return insertLinesBefore(text, at, indentAt(text, at), `env:\n${entry}`);
}

/** The container named manager of the file's pod template (located by the parser, at any indentation). */
function managerContainer(path: string, text: string): YAMLMap<unknown, unknown> | undefined {
  for (const doc of documents(path, text)) {
    let found: YAMLMap<unknown, unknown> | undefined;
    visit(doc, {
      Pair(_, pair) {
        if (!isScalar(pair.key) || pair.key.value !== "containers" || !isSeq(pair.value)) return undefined;
        found = pair.value.items.find((c): c is YAMLMap => isMap(c) && c.get("name") === "manager");
        return found ? visit.BREAK : undefined;
      },
    });
    if (found) return found;
  }
  return undefined;
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
  // A re-run (--force) replaces the kind's entry where it is: the manager's variables keep PROJECT's order.
  const at = mine.resources.findIndex(
    (e) => e.group === r.group && e.version === r.version && e.kind === r.kind,
  );
  const resources = [...mine.resources];
  if (at < 0) resources.push(entry);
  else resources[at] = entry;
  ctx.config.plugins[DEPLOY_IMAGE_PLUGIN_KEY] = { resources };
}

/** The deploy-image controller's template (re-rendered by `edit --namespaced` for its RBAC markers). */
export const CONTROLLER_TEMPLATE: TemplateFile = {
  template: `${TEMPLATE_SET}/internal/controller/{{groupDir}}{{kindLower}}_controller.ts.hbs`,
  set: TEMPLATE_SET,
};

/** The template data of a deploy-image kind: the base plugin's resource data and the image flags. */
export function deployImageData(ctx: Pick<PluginContext, "config">, r: ResourceModel, o: ImageOptions) {
  const image = {
    ...o,
    port: o.port ?? "",
    runAsUser: o.runAsUser ?? "",
    command: o.command ?? "",
    commandArgs: commandArgs(o.command ?? ""),
  };
  const data = resourceData(ctx, r);
  return {
    ...data,
    // DependentsReconciler names its controller after the lower-case kind unless told otherwise.
    ownControllerName: data.controllerName === r.kind.toLowerCase() ? "" : data.controllerName,
    image,
    imageEnvVar: imageEnvVar(r.kind),
    // A container port's name is an IANA service name: at most 15 characters.
    portName: r.kindLower.slice(0, 15),
  };
}

export function scaffoldDeployImage(
  scaffold: Scaffold,
  data: object,
  r: ResourceModel,
  o: ImageOptions,
): void {
  for (const file of templateFiles()) scaffold.template(file, data);
  scaffold.edit("config/manager/manager.yaml", (text) =>
    setManagerImageEnv(text, imageEnvVar(r.kind), o.image),
  );
}

export const deployImagePlugin: Plugin = {
  key: DEPLOY_IMAGE_PLUGIN_KEY,
  description: "Scaffolds an API and a controller that deploys an image (the Operand) as a Deployment",
  async createApi(ctx, resource, options) {
    const image = checkImageOptions(options.image);
    if (options.controllerName !== undefined) {
      // The plugin's controller is the kind's own; a named one would sit beside it unwired.
      throw new KbtsError("deploy-image/v1-alpha writes the kind's own controller, not a named one", {
        where: "--controller-name",
        fix: "drop --controller-name; add another controller afterwards with `kbts create api --controller-name NAME` (without deploy-image)",
      });
    }
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
    scaffoldDeployImage(ctx.scaffold, deployImageData(ctx, resource, image), resource, image);
    record(ctx, resource, image);
  },
};
