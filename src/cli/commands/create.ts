import type { Command } from "commander";
import { exitCleanlyOnSignals } from "../../process.js";
import { collectList, flagBool, parseBool, printResult } from "../scaffold-flags.js";

function gvkOptions(command: Command): Command {
  return command
    .requiredOption("--group <group>", "resource Group")
    .requiredOption("--version <version>", "resource Version")
    .requiredOption("--kind <kind>", "resource Kind")
    .option("--plural <plural>", "resource irregular plural form")
    .option("--force", "attempt to create resource even if it already exists")
    .option("--plugins <keys>", "plugin keys to be used for this subcommand execution", collectList, []);
}

function trimmed(value: unknown): string {
  return String(value ?? "").trim();
}

// Declares `kbts create api` and `kbts create webhook`; the scaffolding loads only when they run.
export function defineCreate(create: Command): void {
  gvkOptions(
    create
      .command("api")
      .description(
        "Scaffold a Kubernetes API: types, controller, tests, samples, RBAC and CRD kustomization",
      ),
  )
    .option(
      "--resource [bool]",
      "scaffold the API types, sample and CRD kustomization (default true; --resource=false to skip)",
      parseBool,
    )
    .option(
      "--controller [bool]",
      "scaffold the controller and its test (default true; --controller=false to skip)",
      parseBool,
    )
    .option(
      "--namespaced [bool]",
      "resource is namespaced (default true; --namespaced=false for a cluster-scoped kind)",
      parseBool,
    )
    .option(
      "--controller-name <name>",
      "name of the controller to scaffold (e.g. memcached-backup): another controller for the kind, with its own file and reconciler",
    )
    .option(
      "--external-api-path <path>",
      "with --resource=false: where an external kind's types come from: its CRD file (types generated into api/external/<group>/<version>), a local TypeScript path (./...) or an npm package (@acme/types/v1)",
    )
    .option(
      "--external-api-domain <domain>",
      "the external kind's domain, after the group (--group cert-manager --external-api-domain io: cert-manager.io); used for RBAC",
    )
    .option(
      "--external-api-module <package>",
      "the npm package (with an optional @version) that --external-api-path comes from; added to package.json",
    )
    .option(
      "--image <image>",
      "deploy-image/v1-alpha: the Operand image the controller deploys (e.g. memcached:1.6.26-alpine3.19)",
    )
    .option(
      "--image-container-command <command>",
      'deploy-image/v1-alpha: [optional] the container command, comma-separated (e.g. "memcached,--memory-limit=64,-o,modern,-v")',
    )
    .option(
      "--image-container-port <port>",
      "deploy-image/v1-alpha: [optional] the container port (e.g. 11211); adds spec.containerPort to the API",
    )
    .option(
      "--run-as-user <uid>",
      "deploy-image/v1-alpha: [optional] the container's user id (securityContext.runAsUser, e.g. 1001)",
    )
    .option(
      "--manifests [bool]",
      "deploy-image/v1-alpha: run 'make manifests' afterwards when the dependencies are installed (default true; --manifests=false to skip)",
      parseBool,
    )
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runCreateApi } = await import("../../commands/create-api.js");
      const text = (v: unknown) => (v === undefined ? undefined : trimmed(v));
      printResult(
        await runCreateApi(process.cwd(), {
          group: trimmed(opts.group),
          version: trimmed(opts.version),
          kind: trimmed(opts.kind),
          plural: opts.plural === undefined ? undefined : trimmed(opts.plural),
          resource: flagBool(opts.resource, true),
          controller: flagBool(opts.controller, true),
          namespaced: opts.namespaced === undefined ? undefined : flagBool(opts.namespaced, true),
          force: opts.force === true,
          plugins: opts.plugins as string[],
          externalApiPath: text(opts.externalApiPath),
          externalApiDomain: text(opts.externalApiDomain),
          externalApiModule: text(opts.externalApiModule),
          controllerName: text(opts.controllerName),
          image: text(opts.image),
          imageContainerCommand: text(opts.imageContainerCommand),
          imageContainerPort: text(opts.imageContainerPort),
          runAsUser: text(opts.runAsUser),
          manifests: opts.manifests === undefined ? undefined : flagBool(opts.manifests, true),
        }),
      );
    });

  gvkOptions(
    create
      .command("webhook")
      .description(
        "Scaffold a webhook (defaulting, validating and/or conversion) for an API of the project, a built-in kind or an external kind",
      ),
  )
    .option("--defaulting", "if set, scaffold the defaulting webhook")
    .option("--programmatic-validation", "if set, scaffold the validating webhook")
    .option(
      "--conversion",
      "if set, scaffold the conversion webhook: --version is the hub (the storage version), --spoke the other versions",
    )
    .option(
      "--spoke <versions>",
      "comma-separated spoke versions of the conversion webhook, e.g. --spoke v1alpha1,v2",
      collectList,
      [],
    )
    .option(
      "--defaulting-path <path>",
      "with --defaulting: the webhook's path instead of /mutate-<group>-<version>-<kind> (e.g. /my-custom-mutate-path)",
    )
    .option(
      "--validation-path <path>",
      "with --programmatic-validation: the webhook's path instead of /validate-<group>-<version>-<kind> (e.g. /my-custom-validate-path)",
    )
    .option(
      "--external-api-path <path>",
      "for a kind defined outside the project: where its types come from, as create api --external-api-path (a kind made that way needs none)",
    )
    .option(
      "--external-api-domain <domain>",
      "the external kind's domain, after the group (--group cert-manager --external-api-domain io: cert-manager.io)",
    )
    .option(
      "--external-api-module <package>",
      "the npm package (with an optional @version) that --external-api-path comes from; added to package.json",
    )
    .action(async (opts: Record<string, unknown>) => {
      exitCleanlyOnSignals();
      const { runCreateWebhook } = await import("../../commands/create-webhook.js");
      const text = (v: unknown) => (v === undefined ? undefined : trimmed(v));
      printResult(
        await runCreateWebhook(process.cwd(), {
          group: trimmed(opts.group),
          version: trimmed(opts.version),
          kind: trimmed(opts.kind),
          plural: opts.plural === undefined ? undefined : trimmed(opts.plural),
          defaulting: opts.defaulting === true,
          programmaticValidation: opts.programmaticValidation === true,
          conversion: opts.conversion === true,
          spoke: opts.spoke as string[],
          defaultingPath: text(opts.defaultingPath),
          validationPath: text(opts.validationPath),
          externalApiPath: text(opts.externalApiPath),
          externalApiDomain: text(opts.externalApiDomain),
          externalApiModule: text(opts.externalApiModule),
          force: opts.force === true,
          plugins: opts.plugins as string[],
        }),
      );
    });
}
