import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { breakingMarkers } from "../breaking/markers.js";
import { buildCrds } from "../crd/build.js";
import { crdFiles } from "../crd/files.js";
import { crdGeneratorMarkers } from "../crd/markers/index.js";
import type { CustomResourceDefinition } from "../crd/types.js";
import { KbtsError } from "../errors.js";
import { loadingMarkers } from "../loading/markers.js";
import { findApiPackages } from "../loading/packages.js";
import { formatLocation, instancesOf, type MarkerLocation, Registry } from "../markers/registry.js";
import { generateRoles } from "../rbac/generate.js";
import { guardMarker } from "../rbac/guard-markers.js";
import { GUARDS_FILE, generateGuards } from "../rbac/guards.js";
import { rbacGeneratorMarkers, rbacMarker } from "../rbac/markers.js";
import { SchemaWalker } from "../schema/walker.js";
import { kbtsVersion, VERSION_ANNOTATION } from "../version.js";
import { generateWebhookConfigurations, WebhookError } from "../webhook/generate.js";
import { webhookConfigurationMarker, webhookGeneratorMarkers, webhookMarker } from "../webhook/markers.js";
import { type JsonValue, toJsonValue, toYamlDocuments } from "../yaml/emit.js";
import { checkCrds, visitMarkers } from "./checks.js";
import { crdSizeWarning } from "./crd-size.js";
import { crdDirectory, DEFAULT_ROLE_NAME } from "./defaults.js";
import type { Generator } from "./generator.js";

/**
 * The generators of `kbts manifests`, in the order they run (write guards read the CRDs), and every
 * marker kbts understands composed from theirs, as controller-tools' genall does.
 */

/** CRDs from the API packages' kinds: config/crd/bases/<group>_<plural>.yaml. */
export const crdGenerator: Generator = {
  name: "crd",
  markers: crdGeneratorMarkers,
  generate(ctx) {
    const { root, loaded, collector, options, errors } = ctx;
    const packages = findApiPackages(root, loaded.files, collector, loaded.checker);
    const optionalFiles = new Set(packages.filter((p) => p.optionalByDefault).flatMap((p) => p.files));
    const walker = new SchemaWalker(loaded.checker, collector, {
      root,
      allowDangerousTypes: options.allowDangerousTypes ?? false,
      packageOptional: (sf) => optionalFiles.has(sf),
    });
    const built = buildCrds(
      root,
      packages,
      walker,
      collector,
      { [VERSION_ANNOTATION]: kbtsVersion() },
      errors,
    );
    errors.push(...walker.errors);
    if (errors.length === 0 && !options.unchecked) checkCrds(built, collector, loaded.checker, errors);
    if (errors.length === 0 && options.visitMarkers)
      visitMarkers(built, collector, loaded.checker, options.visitMarkers);
    ctx.kinds = built.map((b) => b.crd);
    const dir = crdDirectory(root, options.crdOutput);
    for (const [file, crd] of crdFiles(root, dir, built, errors)) {
      const object = toJsonValue(crd) as unknown as CustomResourceDefinition;
      const text = toYamlDocuments([object as unknown as JsonValue]);
      ctx.output.files.set(file, text);
      ctx.output.crds.set(file, object);
      const big = crdSizeWarning(file, `${crd.spec.names.plural}.${crd.spec.group}`, text);
      if (big) ctx.warnings.push(big);
    }
  },
};

/** The manager's Role/ClusterRole (config/rbac/role.yaml) and the write guards (+kbts:guard). */
export const rbacGenerator: Generator = {
  name: "rbac",
  markers: rbacGeneratorMarkers,
  generate(ctx) {
    const { root, errors } = ctx;
    const pkgMarkers = ctx.packageMarkers();
    const rules = instancesOf(pkgMarkers, rbacMarker).map((m) => m.value);
    const roles = generateRoles(rules, ctx.options.roleName ?? DEFAULT_ROLE_NAME).map(toJsonValue);
    if (roles.length > 0) ctx.output.files.set("config/rbac/role.yaml", toYamlDocuments(roles));
    ctx.output.roles = roles;
    const guards = generateGuards(
      {
        root,
        guards: instancesOf(pkgMarkers, guardMarker),
        rbac: instancesOf(pkgMarkers, rbacMarker),
        crds: ctx.kinds,
        read: ctx.read,
      },
      errors,
    );
    if (guards.length > 0) {
      ctx.output.files.set(GUARDS_FILE, toYamlDocuments(guards.map(toJsonValue)));
      const listed = guardsListed(root);
      if (listed !== undefined) ctx.read.set(join(root, "config/rbac/kustomization.yaml"), listed.text);
      if (listed && !listed.yes) {
        ctx.warnings.push({
          where: "config/rbac/kustomization.yaml",
          message:
            "write_guards.yaml is not among its resources: make deploy would not install the write guards; add - write_guards.yaml",
        });
      }
    } else if (existsSync(join(root, GUARDS_FILE))) {
      // The last guard marker is gone: its policy must go too, or make deploy keeps installing a guard
      // nobody asked for. Emptied rather than deleted, so the kustomization that lists it still builds.
      ctx.output.files.set(GUARDS_FILE, NO_GUARDS);
    }
  },
};

/** Mutating and validating webhook configurations (config/webhook/manifests.yaml). */
export const webhookGenerator: Generator = {
  name: "webhook",
  markers: webhookGeneratorMarkers,
  generate(ctx) {
    const pkgMarkers = ctx.packageMarkers();
    const hooks = instancesOf(pkgMarkers, webhookMarker);
    const webhookConfigs = instancesOf(pkgMarkers, webhookConfigurationMarker);
    const where = new Map<object, MarkerLocation>([...hooks, ...webhookConfigs].map((m) => [m.value, m.loc]));
    try {
      const configs = generateWebhookConfigurations(
        hooks.map((m) => m.value),
        webhookConfigs.map((m) => m.value),
        (marker) => where.get(marker),
      ).map(toJsonValue);
      if (configs.length > 0) ctx.output.files.set("config/webhook/manifests.yaml", toYamlDocuments(configs));
      ctx.output.webhooks = configs;
    } catch (err) {
      if (!(err instanceof WebhookError)) throw err;
      ctx.errors.push(
        new KbtsError(
          `+kubebuilder:webhook: ${err.message}`,
          err.loc ? { where: formatLocation(err.loc) } : {},
        ),
      );
    }
  },
};

/** Every generator of `kbts manifests`, in the order they run. */
export const generators: readonly Generator[] = [crdGenerator, rbacGenerator, webhookGenerator];

/**
 * Every marker kbts understands: package loading's, each generator's, and kbts' breaking-change gate's.
 */
export const registry = new Registry()
  .add(...loadingMarkers)
  .add(...generators.flatMap((g) => g.markers))
  .add(...breakingMarkers)
  // Markers of other generators (deepcopy, applyconfigurations, kubebuilder's scaffolder).
  .ignore(
    "kubebuilder:object:generate",
    "kubebuilder:scaffold",
    "kubebuilder:ac:generate",
    "kubebuilder:ac:output:package",
    "k8s:deepcopy-gen",
    "k8s:openapi-gen",
    "genclient",
    "kubebuilder:docs-gen",
    // gengo's enum tag on k8s.io/api types (openapi-gen reads it; controller-gen does not).
    "enum",
  );

/** Whether config/rbac/kustomization.yaml lists the guards file (undefined when there is none). */
function guardsListed(root: string): { yes: boolean; text: string } | undefined {
  try {
    const text = readFileSync(join(root, "config/rbac/kustomization.yaml"), "utf8");
    return { yes: /^\s*-\s*write_guards\.yaml\s*$/m.test(text), text };
  } catch {
    return undefined;
  }
}

/** config/rbac/write_guards.yaml once the project has no +kbts:guard marker left. */
export const NO_GUARDS =
  "# No +kbts:guard markers: no write guards. kbts manifests writes them here when there are.\n";
