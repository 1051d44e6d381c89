import { resolve } from "node:path";
import { pluralize } from "../crd/plural.js";
import { KbtsError } from "../errors.js";
import { StagedFS } from "../files/staged.js";
import { DEPLOY_IMAGE_PLUGIN_KEY } from "../plugins/deployimage/index.js";
import type { ApiOptions } from "../plugins/types.js";
import { foreignModel, resolveKindSource } from "../plugins/typescript/kind-source.js";
import { apiVersionsOf, storageVersionsOf } from "../plugins/typescript/storage-version.js";
import { refuseBuiltinGroup } from "../project/builtin-kinds.js";
import {
  findResource,
  formatProject,
  PROJECT_FILE,
  type ProjectConfig,
  type Resource,
} from "../project/config.js";
import {
  controllerFileName,
  controllerIdentity,
  controllerNames,
  reconcilerName,
  validateControllerName,
} from "../project/controllers.js";
import { checkResourceNames, qualifiedGroup } from "../project/names.js";
import { type ResourceFlags, type ResourceModel, resourceModel } from "../project/resource.js";
import { checkIdentifierCollisions } from "../project/validate.js";
import { dependenciesInstalled, INSTALL_COMMAND, runProjectMake } from "../scaffold/install.js";
import {
  flush,
  loadProjectConfig,
  pluginChain,
  projectScaffold,
  type ScaffoldResult,
  validateResourceFlags,
} from "./project.js";

export interface CreateApiFlags extends ResourceFlags {
  resource?: boolean;
  controller?: boolean;
  force?: boolean;
  plugins?: string[];
  /** Kubebuilder's external-type flags: where the kind's types come from, its domain, its package. */
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
  /** --controller-name: another controller for the kind, with its own file and reconciler. */
  controllerName?: string;
  /** deploy-image/v1-alpha's flags (Kubebuilder's names): the image and how its container runs. */
  image?: string;
  imageContainerCommand?: string;
  imageContainerPort?: string;
  runAsUser?: string;
  /** deploy-image/v1-alpha: run `make manifests` afterwards (default true, when the dependencies are installed). */
  manifests?: boolean;
}

/** `kbts create api`: a kind's types, its controller, or both, and its PROJECT entry. */
export async function runCreateApi(dir: string, flags: CreateApiFlags): Promise<ScaffoldResult> {
  const fs = new StagedFS(resolve(dir));
  const config = loadProjectConfig(fs);
  validateResourceFlags(flags);
  const options: ApiOptions = {
    resource: flags.resource ?? true,
    controller: flags.controller ?? true,
    force: flags.force ?? false,
  };
  const externalFlag = (
    [
      ["--external-api-path", flags.externalApiPath],
      ["--external-api-domain", flags.externalApiDomain],
      ["--external-api-module", flags.externalApiModule],
    ] as const
  ).find(([, v]) => v !== undefined)?.[0];
  if (options.resource && externalFlag) {
    throw new KbtsError(
      `${externalFlag} is for a kind defined outside the project; it cannot be used with --resource=true`,
      {
        where: externalFlag,
        fix: "add --resource=false --controller to scaffold a controller for the external kind",
      },
    );
  }
  if (flags.externalApiModule !== undefined && flags.externalApiPath === undefined) {
    throw new KbtsError("--external-api-module requires --external-api-path", {
      where: "--external-api-module",
      fix: "name the import path of the kind's types with --external-api-path",
    });
  }
  if (flags.controllerName !== undefined && !options.controller) {
    throw new KbtsError("--controller-name names a controller, but --controller=false scaffolds none", {
      where: "--controller-name",
      fix: "drop --controller=false, or drop --controller-name",
    });
  }
  if (options.resource) refuseBuiltinGroup(flags.group, flags.kind, config.domain ?? "");
  if (!options.resource && !options.controller) {
    throw new KbtsError("nothing to create: both --resource=false and --controller=false", {
      where: "--resource, --controller",
      fix: "drop one of them",
    });
  }
  const chain = pluginChain(config, flags.plugins);
  if (!chain.some((p) => p.createApi)) {
    throw new KbtsError("none of the project's plugins can create an API", { where: "--plugins" });
  }
  const deployImage = chain.some((p) => p.key === DEPLOY_IMAGE_PLUGIN_KEY);
  const imageFlag = (
    [
      ["--image", flags.image],
      ["--image-container-command", flags.imageContainerCommand],
      ["--image-container-port", flags.imageContainerPort],
      ["--run-as-user", flags.runAsUser],
      ["--manifests", flags.manifests],
    ] as const
  ).find(([, v]) => v !== undefined)?.[0];
  if (imageFlag && !deployImage) {
    throw new KbtsError(`${imageFlag} is a flag of the deploy-image/v1-alpha plugin`, {
      where: imageFlag,
      fix: "add --plugins deploy-image/v1-alpha to scaffold a controller that deploys the image",
    });
  }
  if (deployImage && (!options.resource || !options.controller)) {
    // As Kubebuilder's, which always scaffolds both (it does not take --resource and --controller).
    throw new KbtsError("deploy-image/v1-alpha scaffolds both the API and its controller", {
      where: "--resource, --controller",
      fix: "drop --resource=false / --controller=false",
    });
  }
  if (deployImage && imageFlag !== undefined && imageFlag !== "--manifests") {
    options.image = {
      image: flags.image ?? "",
      command: flags.imageContainerCommand,
      port: flags.imageContainerPort,
      runAsUser: flags.runAsUser,
    };
  }
  const others = (config.resources ?? []).filter((r) => !r.core && !r.external && r.group !== flags.group);
  if (!config.multigroup && others.length > 0 && options.resource) {
    throw new KbtsError(
      `multiple groups are not allowed by default (the project already has group ${JSON.stringify(others[0]?.group)})`,
      {
        where: "--group",
        fix: "set `multigroup: true` in PROJECT (and move api/<version> to api/<group>/<version>), or init with --multigroup",
      },
    );
  }
  const existing = findResource(config, flags);
  if (flags.controllerName !== undefined) {
    options.controllerName = checkControllerName(flags, existing);
  } else if (options.controller && !options.resource && existing?.controllers?.length) {
    throw new KbtsError(
      `${flags.kind} already has named controllers (${controllerNames(existing).join(", ")})`,
      {
        where: "--controller-name",
        fix: "name the new controller with --controller-name, or pass --controller=false",
      },
    );
  }
  const legacyTaken = existing?.controller || (existing?.controllers?.length ?? 0) > 0;
  if (
    !options.force &&
    ((options.resource && existing?.api) ||
      (options.controller && options.controllerName === undefined && legacyTaken))
  ) {
    throw new KbtsError(`API resource already exists: ${flags.group}/${flags.version}, Kind=${flags.kind}`, {
      where: PROJECT_FILE,
      fix:
        options.controller && legacyTaken && !(options.resource && existing?.api)
          ? "pass --controller-name <name> to add another controller for the kind, or --force to re-scaffold its files (your edits to them are overwritten)"
          : "pass --force to re-scaffold its files (your edits to them are overwritten)",
    });
  }
  if (options.controller && !fs.exists("cmd/main.ts")) {
    throw new KbtsError("cmd/main.ts is missing; the controller could not be registered", {
      where: "cmd/main.ts",
      fix: "restore cmd/main.ts (it holds the // +kubebuilder:scaffold insertion points)",
    });
  }
  if (!options.resource && !existing?.api) {
    // A controller for a kind the project does not own: built-in, or external (--external-api-path).
    options.source = await resolveKindSource(fs.root, config, flags, existing);
  }
  const model = options.source
    ? foreignModel(config, flags, options.source)
    : resourceModel(config, { ...flags, plural: flags.plural ?? existing?.plural });
  checkResourceNames(model);
  if (!options.source) refusePluralTaken(config, model);
  const ctx = projectScaffold(fs, config);
  for (const plugin of chain) await plugin.createApi?.(ctx, model, options);
  checkIdentifierCollisions(fs, model.kind);
  fs.write(PROJECT_FILE, formatProject(config));
  if (options.source) return { written: flush(fs), next: foreignNext(fs, model, options) };
  if (deployImage) {
    const written = flush(fs);
    // As Kubebuilder's deploy-image (--manifests, default true): the CRD and RBAC follow the new types.
    const ran = flags.manifests !== false && dependenciesInstalled(fs.root);
    if (ran) await runProjectMake(fs.root, "manifests");
    const install = dependenciesInstalled(fs.root) ? [] : [`$ ${INSTALL_COMMAND}`];
    const next = ran
      ? "Next: check the implementation of your new API and controller. If you do changes in the API run the manifests with:\n$ make manifests"
      : [
          "Next: check the implementation of your new API and controller, then generate the manifests with:",
          ...install,
          "$ make manifests",
        ].join("\n");
    return { written, next };
  }
  const next = dependenciesInstalled(fs.root)
    ? "Next: implement your new API and generate the manifests (e.g. CRDs, CRs) with:\n$ make manifests"
    : `Next: install the dependencies, implement your new API and generate the manifests (e.g. CRDs, CRs) with:\n$ ${INSTALL_COMMAND}\n$ make manifests`;
  return { written: flush(fs), next: [next, ...versionsNext(fs, config, model)].join("\n") };
}

/**
 * --controller-name, checked as Kubebuilder checks it: a DNS-1035 label, not a name the kind's
 * controllers have, nor one that makes the same reconciler class (--controller=false is refused earlier).
 */
function checkControllerName(flags: CreateApiFlags, existing: Resource | undefined): string {
  const name = (flags.controllerName ?? "").trim();
  validateControllerName(name);
  const taken = existing ? controllerNames(existing) : [];
  const gvk = `${flags.group}/${flags.version}, Kind=${flags.kind}`;
  if (taken.includes(name)) {
    throw new KbtsError(`controller ${JSON.stringify(name)} already exists for ${gvk}`, {
      where: "--controller-name",
      fix: `choose another name (the kind's controllers: ${taken.join(", ")})`,
    });
  }
  const same = taken.find((t) => controllerIdentity(t) === controllerIdentity(name));
  if (same !== undefined) {
    throw new KbtsError(
      `controller name ${JSON.stringify(name)} conflicts with ${JSON.stringify(same)}: both normalize to ${JSON.stringify(controllerIdentity(name))}, so their reconciler classes would clash (${reconcilerName(name, flags.kind)}, ${reconcilerName(same, flags.kind)})`,
      { where: "--controller-name", fix: "choose a name that differs from it in more than '-'" },
    );
  }
  return name;
}

function foreignNext(fs: StagedFS, model: ResourceModel, options: ApiOptions): string {
  const source = options.source;
  if (!source) throw new Error("unreachable: a foreign kind has a source");
  const install = dependenciesInstalled(fs.root) && !source.dependency ? [] : [`$ ${INSTALL_COMMAND}`];
  const file = controllerFileName(options.controllerName, model.kind);
  return [
    ...source.notes,
    `Next: implement the reconciler of ${model.kind} (${model.apiVersion}) in internal/controller/${model.groupDir}${file}_controller.ts, then generate the RBAC with:`,
    ...install,
    "$ make manifests",
  ].join("\n");
}

/**
 * A kind with several versions: which one is stored, and how to convert between them (a conversion
 * webhook, the hub stored), unless one is set up already.
 */
function versionsNext(fs: StagedFS, config: ProjectConfig, r: ResourceModel): string[] {
  const versions = apiVersionsOf(config, r);
  if (
    versions.length < 2 ||
    config.resources?.some((x) => x.kind === r.kind && x.group === r.group && x.webhooks?.conversion)
  ) {
    return [];
  }
  const stored = storageVersionsOf(fs, config, r);
  return [
    `${r.kind} now has versions ${versions.join(", ")}${stored.length === 1 ? ` (${stored[0]} is the storage version)` : ""}. To convert between them, pick a hub and run:`,
    `$ kbts create webhook --group ${r.group} --version <hub> --kind ${r.kind} --conversion --spoke <the other versions>`,
  ];
}

/** Two kinds of one group with the same plural would share one CRD name: the second would get no CRD. */
function refusePluralTaken(config: ProjectConfig, model: ResourceModel): void {
  const taken = (config.resources ?? []).find(
    (r) =>
      !r.core &&
      r.kind !== model.kind &&
      qualifiedGroup(r.group, r.domain ?? config.domain ?? "") === model.qualifiedGroup &&
      (r.plural ?? pluralize(r.kind)) === model.plural,
  );
  if (taken) {
    throw new KbtsError(
      `plural ${JSON.stringify(model.plural)} is already the resource name of kind ${taken.kind} in group ${model.qualifiedGroup}`,
      {
        where: "--plural",
        fix: "give this kind another --plural (each kind of a group needs its own resource name)",
      },
    );
  }
}
