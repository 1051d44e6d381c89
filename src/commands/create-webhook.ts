import { resolve } from "node:path";
import { KbtsError } from "../errors.js";
import { StagedFS } from "../files/staged.js";
import { foreignModel, resolveKindSource } from "../plugins/typescript/kind-source.js";
import { storageVersionsOf } from "../plugins/typescript/storage-version.js";
import { checkBuiltinWebhookKind } from "../project/builtin-kinds.js";
import { findResource, formatProject, PROJECT_FILE, type ProjectConfig, sameGVK } from "../project/config.js";
import { validateGroup, validateKind, validatePlural, validateVersion } from "../project/names.js";
import {
  isCoreResource,
  type ResourceFlags,
  type ResourceModel,
  resourceModel,
} from "../project/resource.js";
import { checkIdentifierCollisions } from "../project/validate.js";
import { flush, loadProjectConfig, pluginChain, projectScaffold, type ScaffoldResult } from "./project.js";

export interface CreateWebhookFlags extends ResourceFlags {
  defaulting?: boolean;
  programmaticValidation?: boolean;
  /** A conversion webhook with --version as the hub and `spoke` as the other versions. */
  conversion?: boolean;
  spoke?: string[];
  /** Kubebuilder's --defaulting-path/--validation-path: the webhooks' paths instead of the generated ones. */
  defaultingPath?: string;
  validationPath?: string;
  /** A kind defined outside the project, as create api's --external-api-* (PROJECT's entry is reused). */
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
  force?: boolean;
  plugins?: string[];
}

/** `kbts create webhook`: defaulting, validating or conversion webhooks for a kind in PROJECT. */
export async function runCreateWebhook(dir: string, flags: CreateWebhookFlags): Promise<ScaffoldResult> {
  const fs = new StagedFS(resolve(dir));
  const config = loadProjectConfig(fs);
  if (flags.group !== "core") validateGroup(flags.group);
  validateVersion(flags.version);
  validateKind(flags.kind);
  if (flags.plural !== undefined) validatePlural(flags.plural);
  if (flags.spoke?.length && !flags.conversion) {
    throw new KbtsError("--spoke names the versions of a conversion webhook", {
      where: "--spoke",
      fix: "add --conversion (the version of --version is the hub)",
    });
  }
  if (!flags.defaulting && !flags.programmaticValidation && !flags.conversion) {
    throw new KbtsError(
      "create webhook requires at least one of --defaulting, --programmatic-validation and --conversion",
      {
        where: "--defaulting, --programmatic-validation, --conversion",
        fix: "e.g. kbts create webhook --group cache --version v1alpha1 --kind Memcached --programmatic-validation",
      },
    );
  }
  checkWebhookPaths(config, flags);
  if (flags.externalApiModule !== undefined && flags.externalApiPath === undefined) {
    throw new KbtsError("--external-api-module requires --external-api-path", {
      where: "--external-api-module",
      fix: "name the import path of the kind's types with --external-api-path",
    });
  }
  const chain = pluginChain(config, flags.plugins);
  const existing = findResource(config, flags);
  const externalFlag = (
    [
      ["--external-api-path", flags.externalApiPath],
      ["--external-api-domain", flags.externalApiDomain],
    ] as const
  ).find(([, v]) => v !== undefined)?.[0];
  if (externalFlag && existing?.api) {
    throw new KbtsError(
      `${externalFlag} is for a kind defined outside the project; ${flags.kind} is the project's own`,
      {
        where: externalFlag,
        fix: `drop ${externalFlag}`,
      },
    );
  }
  const external =
    !existing?.api &&
    (flags.externalApiPath !== undefined ||
      flags.externalApiDomain !== undefined ||
      existing?.external === true);
  if (external && flags.conversion) {
    throw new KbtsError(
      `${flags.kind} is an external kind: conversion webhooks are for the project's own kinds`,
      {
        where: "--conversion",
        fix: "drop --conversion; the kind's owner converts its versions",
      },
    );
  }
  const source = external ? await resolveKindSource(fs.root, config, flags, existing) : undefined;
  const core = !source && isCoreResource(config, flags);
  if (core && flags.conversion) {
    throw new KbtsError(
      `${flags.kind} is a built-in kind: conversion webhooks are for the project's own kinds`,
      {
        where: "--conversion",
        fix: "drop --conversion, or name a kind created with kbts create api",
      },
    );
  }
  if (core) checkBuiltinWebhookKind(flags.group, flags.version, flags.kind);
  if (!core && !source && !existing?.api) {
    throw new KbtsError(`no API found for ${flags.group}/${flags.version}, Kind=${flags.kind}`, {
      where: PROJECT_FILE,
      fix: "run 'kbts create api' first, or pass --external-api-path for a kind defined outside the project",
    });
  }
  const force = flags.force ?? false;
  const had = existing?.webhooks ?? {};
  const spokes = flags.conversion ? conversionSpokes(config, flags, had) : [];
  const clash =
    (flags.defaulting && had.defaulting) ||
    (flags.programmaticValidation && had.validation) ||
    (flags.conversion && had.conversion);
  if (clash && !force) {
    throw new KbtsError(`webhook already exists for ${flags.group}/${flags.version}, Kind=${flags.kind}`, {
      where: PROJECT_FILE,
      fix: flags.conversion
        ? "pass --force to re-scaffold the conversion files with the spokes given and those in PROJECT (your edits to them are overwritten)"
        : "pass --force to re-scaffold the webhook file",
    });
  }
  const admission = Boolean(flags.defaulting || flags.programmaticValidation);
  if (admission && (had.defaulting || had.validation) && !force) {
    throw new KbtsError(
      `a webhook file already exists for ${flags.kind}; adding another webhook type rewrites it`,
      {
        where: "--force",
        fix: "pass --force (your edits to the webhook file are overwritten), or add the handler by hand",
      },
    );
  }
  const namespaced = existing?.api?.namespaced ?? (core ? true : undefined);
  const model: ResourceModel = source
    ? foreignModel(config, flags, source)
    : resourceModel(
        config,
        { ...flags, plural: flags.plural ?? existing?.plural, namespaced: namespaced ?? false },
        core,
      );
  if (!fs.exists("cmd/main.ts")) {
    throw new KbtsError("cmd/main.ts is missing; the webhook could not be registered", {
      where: "cmd/main.ts",
    });
  }
  const options = {
    defaulting: admission && Boolean(flags.defaulting || had.defaulting),
    validation: admission && Boolean(flags.programmaticValidation || had.validation),
    conversion: flags.conversion === true,
    spokes,
    force,
    // A later run that adds a webhook type keeps the paths PROJECT has (the file is rewritten whole).
    defaultingPath: flags.defaultingPath ?? had.defaultingPath,
    validationPath: flags.validationPath ?? had.validationPath,
    source,
  };
  if (options.defaultingPath !== undefined && options.defaultingPath === options.validationPath) {
    throw new KbtsError(`the defaulting and validating webhooks would both be at ${options.defaultingPath}`, {
      where: flags.validationPath !== undefined ? "--validation-path" : "--defaulting-path",
      fix: "give the defaulting and the validating webhook different paths",
    });
  }
  const storedBefore = flags.conversion ? storageVersionsOf(fs, config, model) : [];
  const ctx = projectScaffold(fs, config);
  for (const plugin of chain) await plugin.createWebhook?.(ctx, model, options);
  checkIdentifierCollisions(fs, model.kind);
  fs.write(PROJECT_FILE, formatProject(config));
  const next = flags.conversion
    ? conversionNext(model, spokes, storedBefore)
    : "Next: implement your new Webhook and generate the manifests with:\n$ make manifests";
  return { written: flush(fs), next };
}

/** controller-runtime's rule for a webhook's custom path (builder.generateCustomPath). */
const WEBHOOK_PATH = /^((\/[a-zA-Z0-9_-]+)+|\/)$/;

/**
 * --defaulting-path and --validation-path: each only with its webhook type (as Kubebuilder), a path
 * the webhook server accepts, not /convert (conversion is served there), not the same for both, and
 * not a path another kind's webhook already has.
 */
function checkWebhookPaths(config: ProjectConfig, flags: CreateWebhookFlags): void {
  const given = [
    ["--defaulting-path", flags.defaultingPath, flags.defaulting, "--defaulting"],
    ["--validation-path", flags.validationPath, flags.programmaticValidation, "--programmatic-validation"],
  ] as const;
  for (const [flag, path, enabled, needs] of given) {
    if (path === undefined) continue;
    if (!enabled) {
      throw new KbtsError(`${flag} can only be used with ${needs}`, {
        where: flag,
        fix: `add ${needs}, or drop ${flag}`,
      });
    }
    if (!WEBHOOK_PATH.test(path)) {
      throw new KbtsError(`${flag} ${JSON.stringify(path)} is not a webhook path`, {
        where: flag,
        fix: "start it with / and use only letters, digits, '-' and '_' between slashes (e.g. /my-custom-mutate-path), as controller-runtime requires",
      });
    }
    if (path === "/convert") {
      throw new KbtsError(`${flag} /convert is where the webhook server serves conversion`, {
        where: flag,
        fix: "choose another path",
      });
    }
    const other = (config.resources ?? []).find(
      (r) =>
        !sameGVK(r, flags) && (r.webhooks?.defaultingPath === path || r.webhooks?.validationPath === path),
    );
    if (other) {
      throw new KbtsError(
        `${flag} ${path} is already the path of a webhook of ${other.group}/${other.version}, Kind=${other.kind}`,
        { where: flag, fix: "give each webhook its own path" },
      );
    }
  }
  if (flags.defaultingPath !== undefined && flags.defaultingPath === flags.validationPath) {
    throw new KbtsError(`--defaulting-path and --validation-path are both ${flags.defaultingPath}`, {
      where: "--validation-path",
      fix: "give the defaulting and the validating webhook different paths",
    });
  }
}

/**
 * The spokes of a conversion webhook: --spoke plus those PROJECT already lists for the hub (a re-run
 * with --force adds spokes). Each must be another version of the same kind with API types in PROJECT.
 */
function conversionSpokes(
  config: ProjectConfig,
  flags: CreateWebhookFlags,
  had: { spoke?: string[] },
): string[] {
  const given = flags.spoke ?? [];
  const versions = (config.resources ?? [])
    .filter((r) => r.api && !r.core && r.group === flags.group && r.kind === flags.kind)
    .map((r) => r.version);
  const others = versions.filter((v) => v !== flags.version);
  const known = others.length > 0 ? `the other versions of ${flags.kind} are ${others.join(", ")}` : "";
  const seen = new Set<string>();
  for (const spoke of given) {
    validateVersion(spoke, "--spoke");
    if (spoke === flags.version) {
      throw new KbtsError(
        `spoke ${spoke} is the hub (--version ${flags.version}); a version cannot convert to itself`,
        {
          where: "--spoke",
          fix: known
            ? `name the other versions: ${known}`
            : "create another version first: kbts create api --version <v>",
        },
      );
    }
    if (!versions.includes(spoke)) {
      throw new KbtsError(
        `invalid spoke version ${JSON.stringify(spoke)}: PROJECT has no ${flags.group}/${spoke} ${flags.kind}`,
        {
          where: "--spoke",
          fix: known
            ? `${known}; create ${spoke} first with kbts create api --group ${flags.group} --version ${spoke} --kind ${flags.kind} --controller=false`
            : `create it first: kbts create api --group ${flags.group} --version ${spoke} --kind ${flags.kind} --controller=false`,
        },
      );
    }
    if (seen.has(spoke)) {
      throw new KbtsError(`duplicate spoke version: ${spoke}`, {
        where: "--spoke",
        fix: "name each version once",
      });
    }
    seen.add(spoke);
  }
  const spokes = [...(had.spoke ?? []), ...given.filter((v) => !had.spoke?.includes(v))];
  if (spokes.length === 0) {
    throw new KbtsError(
      `a conversion webhook needs at least one spoke version besides the hub ${flags.version}`,
      {
        where: "--spoke",
        fix: known
          ? `e.g. --spoke ${others.join(",")} (${known})`
          : `create another version of ${flags.kind} first with kbts create api`,
      },
    );
  }
  const otherHub = (config.resources ?? []).find(
    (r) =>
      !r.core &&
      r.group === flags.group &&
      r.kind === flags.kind &&
      r.version !== flags.version &&
      r.webhooks?.conversion,
  );
  if (otherHub) {
    throw new KbtsError(
      `${flags.kind} already has a conversion hub: ${otherHub.version}; a kind has one hub`,
      {
        where: "--version",
        fix: `add spokes to it with --version ${otherHub.version} --conversion --spoke <versions> --force`,
      },
    );
  }
  return spokes;
}

/** What to do after `create webhook --conversion`: implement the stubs; migrate when the storage version moved. */
function conversionNext(r: ResourceModel, spokes: string[], storedBefore: string[]): string {
  const files = spokes.map((v) => `api/${r.groupDir}${v}/${r.kindLower}_conversion.ts`).join(", ");
  const lines = [
    `Next: implement the conversion functions (each TODO(user)) in ${files}, then generate the manifests and run the round-trip tests with:`,
    "$ make manifests test",
  ];
  const before = storedBefore.filter((v) => v !== r.version);
  if (before.length > 0) {
    const crd = `${r.plural}.${r.qualifiedGroup}`;
    lines.push(
      `The storage version of ${crd} changes from ${before.join(", ")} to ${r.version} (the hub). Objects a cluster stored as ${before.join(", ")} stay so in etcd until rewritten:`,
      `once the new CRD is installed and the operator serves /convert (make deploy), migrate them with`,
      "$ make migrate-storage",
      `It rewrites every ${r.kind} in ${r.version} and leaves status.storedVersions [${r.version}], so ${before.join(", ")} can later stop being served and be removed.`,
    );
  }
  return lines.join("\n");
}
