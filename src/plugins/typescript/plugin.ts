import { posix } from "node:path";
import { compareStrings } from "../../compare.js";
import { pluralize } from "../../crd/plural.js";
import { stageGenerated } from "../../kinds/from-crd.js";
import { type Resource, upsertResource } from "../../project/config.js";
import { controllerFileName, reconcilerName, runtimeControllerName } from "../../project/controllers.js";
import { fnv32a } from "../../project/names.js";
import { type ResourceModel, resourceEntry } from "../../project/resource.js";
import { blockCommentText } from "../../scaffold/encode.js";
import { uncomment } from "../../scaffold/markers.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import { type IfExists, type TemplateFile, templateSet } from "../../scaffold/template.js";
import { addYamlSeqItem, removeYamlSeqItem } from "../../scaffold/yaml-edit.js";
import { KUBERNETES_VERSION } from "../../version.js";
import { managerImageEnv } from "../deployimage/record.js";
import type { ApiOptions, InitOptions, License, Plugin, PluginContext, WebhookOptions } from "../types.js";
import { createConversion } from "./conversion.js";
import { devToolVersions, NODE_LTS_MAJOR } from "./dependencies.js";
import { addWebhookCheck } from "./e2e-checks.js";
import type { KindSource } from "./kind-source.js";
import { fragmentBlock } from "./kustomize-fragments.js";
import { keepExistingStorageVersion, storageVersionsOf } from "./storage-version.js";

/**
 * The default plugin: a TypeScript operator with Kubebuilder's go/v4 + kustomize/v2 layout.
 * Templates live in templates/typescript/{init,api,webhook}; this file only says which ones run,
 * with which policy, and which insertion points each command edits.
 */
export const TYPESCRIPT_PLUGIN_KEY = "typescript.kbts.dev/v1";

function file(set: string, path: string, ifExists: IfExists = "skip"): TemplateFile {
  return { template: `${set}/${path}.hbs`, set, ifExists };
}

/** Data shared by every template of a project. */
export function projectData(ctx: Pick<PluginContext, "config">) {
  const c = ctx.config;
  return {
    projectName: c.projectName ?? "",
    domain: c.domain ?? "",
    repo: c.repo ?? "",
    projectNamespaced: c.namespaced === true,
  };
}

/**
 * The part of init's template data that PROJECT records, so a later command (`kbts edit`) renders an
 * init template exactly as init did.
 */
export function projectInitData(c: {
  projectName?: string;
  domain?: string;
  repo?: string;
  namespaced?: boolean;
  plugins?: Record<string, unknown>;
}) {
  const projectName = c.projectName ?? "";
  // deploy-image/v1-alpha's <KIND>_IMAGE variables, where create api put them in manager.yaml.
  const imageEnv = managerImageEnv(c.plugins);
  const domain = c.domain ?? "";
  const repo = c.repo ?? "";
  return {
    projectName,
    domain,
    repo,
    namespaced: c.namespaced === true,
    imageEnv,
    managerEnv: c.namespaced === true || imageEnv.length > 0,
    leaderElectionID: `${fnv32a(repo || projectName)}.${domain}`,
  };
}

function init(ctx: PluginContext, o: InitOptions): void {
  const data = {
    ...projectInitData(o),
    owner: o.owner ?? "",
    year: o.year,
    licensed: o.license === "apache2",
    boilerplate: boilerplate(o),
    k8sVersion: KUBERNETES_VERSION,
    runtimeSpec: o.runtimeSpec,
    kbtsSpec: o.kbtsSpec,
    vendorDir: o.vendorDir,
    nodeVersion: NODE_LTS_MAJOR,
    devVersions: devToolVersions(),
    // helm/v2-alpha's chart in dist/chart is source: that plugin renders .gitignore with true and carries the change.
    chartInDist: false,
  };
  for (const t of templateSet("typescript/init")) {
    if (t.template.endsWith("boilerplate.ts.txt.hbs") && boilerplate(o) === "") continue;
    ctx.scaffold.template(t, data);
  }
}

/** The license header, with YEAR kept literally (it is substituted when files are rendered). */
export function boilerplate(o: Pick<InitOptions, "license" | "owner" | "licenseText">): string {
  if (o.licenseText !== undefined) return o.licenseText.trimEnd();
  if (o.license === "none") return "";
  const copyright = `Copyright YEAR${o.owner ? ` ${blockCommentText(o.owner)}` : ""}.`;
  return `/*\n${copyright}\n${LICENSE_TEXT[o.license]}*/`;
}

/** The text under the copyright line of each license (Kubebuilder's `copyright` has none). */
const LICENSE_TEXT: Record<Exclude<License, "none">, string> = {
  apache2: `
Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
`,
  MIT: `
Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
`,
  copyright: "",
};

/**
 * The names of one controller of the kind: its file, reconciler class and runtime name. `name` is
 * --controller-name; without it they are the kind's (memcached_controller.ts, MemcachedReconciler).
 */
export function controllerData(r: ResourceModel, name: string | undefined) {
  return {
    controllerFile: controllerFileName(name, r.kind),
    reconcilerName: reconcilerName(name, r.kind),
    controllerName: runtimeControllerName(name, r.kind, r.group, r.multigroup),
  };
}

/**
 * The lines that register a controller in cmd/main.ts, by insertion point. Exported for a plugin that
 * wires its own controller instead (it takes these back with `Scaffold.remove`).
 */
export function controllerWiring(r: ResourceModel, c: ReturnType<typeof controllerData>) {
  return {
    imports: [
      `import { ${c.reconcilerName} } from "../internal/controller/${r.groupDir}${c.controllerFile}_controller.js";`,
    ],
    builder: [`  new ${c.reconcilerName}(mgr.getClient()).setupWithManager(mgr);`],
  };
}

function wireController(ctx: PluginContext, r: ResourceModel, c: ReturnType<typeof controllerData>): void {
  ctx.scaffold.insert("cmd/main.ts", controllerWiring(r, c));
}

/** The lines that register a kind's admission webhooks in cmd/main.ts, by insertion point (see controllerWiring). */
export function admissionWebhookWiring(
  r: Pick<ResourceModel, "kind" | "kindLower" | "groupDir" | "version">,
) {
  return {
    imports: [
      `import { setup${r.kind}WebhookWithManager } from "../internal/webhook/${r.groupDir}${r.version}/${r.kindLower}_webhook.js";`,
    ],
    builder: [
      `  if (process.env.ENABLE_WEBHOOKS !== "false") {\n    setup${r.kind}WebhookWithManager(mgr);\n  }`,
    ],
  };
}

/** Template data for one resource. */
export function resourceData(ctx: Pick<PluginContext, "config">, r: ResourceModel) {
  const depth = r.groupDir ? "../../../" : "../../";
  const webhookDepth = r.groupDir ? "../../../../" : "../../../";
  const rbacPrefix = r.multigroup ? r.group : "";
  return {
    ...projectData(ctx),
    ...r,
    ...controllerData(r, undefined),
    resourceMarker: [r.irregularPlural ? `path=${r.plural}` : "", r.namespaced ? "" : "scope=Cluster"]
      .filter((s) => s !== "")
      .join(","),
    apiImportFromController: `${depth}api/${r.groupDir}${r.version}`,
    apiImportFromWebhook: `${webhookDepth}api/${r.groupDir}${r.version}`,
    configFromController: `${depth}config`,
    rbacFilePrefix: rbacPrefix ? `${rbacPrefix}_` : "",
    rbacNamePrefix: rbacPrefix ? `${rbacPrefix}-` : "",
  };
}

function createApi(ctx: PluginContext, r: ResourceModel, o: ApiOptions): void {
  if (o.source) {
    createForeignController(ctx, r, o, o.source);
    return;
  }
  const data = { ...resourceData(ctx, r), crdsRequired: true };
  const s = ctx.scaffold;
  const storedBefore = storageVersionsOf(s.fs, ctx.config, r);
  const force = { force: o.force };
  const set = "typescript/api";
  if (o.resource) {
    s.template(file(set, "api/{{groupDir}}{{version}}/{{kindLower}}_types.ts", "error"), data, force);
    s.template(file(set, "api/{{groupDir}}{{version}}/groupversion_info.ts"), data);
    s.template(file(set, "config/samples/{{group}}_{{version}}_{{kindLower}}.yaml", "error"), data, force);
    s.template(file(set, "config/samples/kustomization.yaml"), data);
    s.template(file(set, "config/crd/kustomization.yaml"), data);
    s.template(file(set, "config/crd/kustomizeconfig.yaml"), data);
    for (const role of ["admin", "editor", "viewer"]) {
      s.template(file(set, `config/rbac/{{rbacFilePrefix}}{{kindLower}}_${role}_role.yaml`), data);
    }
    s.insert("config/crd/kustomization.yaml", {
      crdkustomizeresource: [`- bases/${r.qualifiedGroup}_${r.plural}.yaml`],
    });
    s.insert("config/samples/kustomization.yaml", {
      manifestskustomizesamples: [`- ${r.group}_${r.version}_${r.kindLower}.yaml`],
    });
    s.insert("config/rbac/kustomization.yaml", {
      rbacroles: ["admin", "editor", "viewer"].map(
        (role) => `- ${data.rbacFilePrefix}${r.kindLower}_${role}_role.yaml`,
      ),
    });
    s.edit("config/default/kustomization.yaml", (text) => uncomment(text, "#- ../crd"));
  }
  if (o.resource) keepExistingStorageVersion(s, ctx.config, r, storedBefore);
  if (o.controller) {
    const c = controllerData(r, o.controllerName);
    const withController = { ...data, ...c };
    s.template(
      file(set, "internal/controller/{{groupDir}}{{controllerFile}}_controller.ts", "error"),
      withController,
      force,
    );
    s.template(
      file(set, "internal/controller/{{groupDir}}{{controllerFile}}_controller.test.ts", "error"),
      withController,
      force,
    );
    s.template(file(set, "internal/controller/{{groupDir}}suite_test.ts"), data);
    wireController(ctx, r, c);
  }
  upsertResource(ctx.config, {
    ...resourceEntry(r),
    api: o.resource ? { crdVersion: "v1", namespaced: r.namespaced } : undefined,
    ...controllerEntry(o),
  });
  if (o.resource) writeKindDescriptors(ctx, r, data);
}

/** PROJECT's record of the controller made: `controller: true`, or the name in `controllers`. */
function controllerEntry(o: ApiOptions): Pick<Resource, "controller" | "controllers"> {
  if (!o.controller) return {};
  return o.controllerName === undefined
    ? { controller: true }
    : { controllers: [{ name: o.controllerName }] };
}

/** The templates of a controller for a built-in or external kind. */
export const FOREIGN_CONTROLLER_SET = "typescript/external-controller";

/** The template data of a built-in or external kind's controller (also re-rendered by edit --namespaced). */
export function foreignControllerData(ctx: Pick<PluginContext, "config">, r: ResourceModel, src: KindSource) {
  const typeImport = typeImportFrom(`internal/controller/${r.groupDir}`, src);
  return {
    ...resourceData(ctx, r),
    crdsRequired: false,
    runtimeKind: "runtime" in src.from,
    descriptor: src.descriptor,
    typeName: src.typeName,
    typeImport,
    path: src.path,
    rbacGroup: src.qualifiedGroup === "" ? "core" : src.qualifiedGroup,
  };
}

/**
 * A controller for a kind the project does not own (Kubebuilder's `create api --resource=false
 * --controller` for a core or external kind): the controller, its test and the wiring in
 * cmd/main.ts; no API types, CRD or samples. An external kind's types generated from its CRD are
 * staged with it, and --external-api-module becomes a package.json dependency.
 */
function createForeignController(ctx: PluginContext, r: ResourceModel, o: ApiOptions, src: KindSource): void {
  const s = ctx.scaffold;
  const c = controllerData(r, o.controllerName);
  const data = { ...foreignControllerData(ctx, r, src), ...c };
  stageGenerated(s.fs, src.files, o.force);
  const set = FOREIGN_CONTROLLER_SET;
  const force = { force: o.force };
  s.template(
    file(set, "internal/controller/{{groupDir}}{{controllerFile}}_controller.ts", "error"),
    data,
    force,
  );
  s.template(
    file(set, "internal/controller/{{groupDir}}{{controllerFile}}_controller.test.ts", "error"),
    data,
    force,
  );
  s.template(file("typescript/api", "internal/controller/{{groupDir}}suite_test.ts"), data);
  wireController(ctx, r, c);
  if (src.dependency) {
    const dep = src.dependency;
    s.edit("package.json", (text) => addDependency(text, dep.name, dep.spec));
  }
  upsertResource(ctx.config, {
    ...resourceEntry(r),
    core: src.core || undefined,
    external: src.external || undefined,
    module: src.module,
    ...controllerEntry(o),
  });
}

/** Where a folder of the project imports a foreign kind's type and descriptor from. */
function typeImportFrom(fromDir: string, src: KindSource): string {
  if ("file" in src.from) return relativeImport(fromDir, src.from.file);
  return "specifier" in src.from ? src.from.specifier : "@kbts/runtime";
}

/** An ESM import of a project .ts file from a folder of the project: `../../api/external/x/v1/a_types.js`. */
function relativeImport(fromDir: string, file: string): string {
  const rel = posix.relative(fromDir, file).replace(/\.ts$/, ".js");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** package.json with one more dependency, sorted as npm writes them; an existing entry is kept. */
function addDependency(text: string, name: string, spec: string): string {
  const pkg = JSON.parse(text) as { dependencies?: Record<string, string> };
  if (pkg.dependencies?.[name] !== undefined) return text;
  const deps = { ...pkg.dependencies, [name]: spec };
  pkg.dependencies = Object.fromEntries(Object.entries(deps).sort(([a], [b]) => compareStrings(a, b)));
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

/**
 * The typed Kind descriptors of the group/version (api/<version>/zz_generated.kinds.ts), written
 * right away as Kubebuilder's `create api` runs `make generate`, so the project compiles at once.
 * The bytes are what `kbts generate` writes for the scaffolded types (a unit test holds them
 * equal), so a later `make generate` changes nothing until the types do.
 */
function writeKindDescriptors(ctx: PluginContext, r: ResourceModel, data: object): void {
  const kinds = (ctx.config.resources ?? [])
    .filter((x) => x.api && !x.core && x.group === r.group && x.version === r.version)
    .map((x) => ({
      kind: x.kind,
      kindLower: x.kind.toLowerCase(),
      plural: x.plural ?? pluralize(x.kind),
      namespaced: x.api?.namespaced === true,
    }));
  const by = (key: "kind" | "kindLower") => (a: (typeof kinds)[0], b: (typeof kinds)[0]) =>
    compareStrings(a[key], b[key]);
  ctx.scaffold.template(
    {
      ...file("typescript/api", "api/{{groupDir}}{{version}}/zz_generated.kinds.ts", "overwrite"),
      header: false,
    },
    { ...data, importsSorted: [...kinds].sort(by("kindLower")), kindsSorted: [...kinds].sort(by("kind")) },
  );
}

/**
 * Blocks of config/default/kustomization.yaml that `create webhook` uncomments (KB §4.3): one-line
 * switches, and the webhook Service's replacements, rendered from the fragment the template renders.
 */
function defaultKustomizeWebhookBlocks(s: Scaffold): string[] {
  return [
    "#- ../webhook",
    "#- ../certmanager",
    "#- path: manager_webhook_patch.yaml\n#  target:\n#    kind: Deployment",
    "#replacements:",
    fragmentBlock(s, "webhook-replacements.yaml.hbs", {}),
  ];
}

/** The CA injection replacements of a webhook type (same fragment and values as the template's). */
function caInjection(s: Scaffold, comment: string, kind: string, servingCertNote = ""): string {
  return fragmentBlock(s, "ca-injection.yaml.hbs", { comment, kind, servingCertNote });
}

async function createWebhook(ctx: PluginContext, r: ResourceModel, o: WebhookOptions): Promise<void> {
  const webhookGroupPath = r.qualifiedGroup.replaceAll(".", "-");
  const src = o.source;
  const data = {
    ...resourceData(ctx, r),
    defaulting: o.defaulting,
    validation: o.validation,
    both: o.defaulting && o.validation,
    kindValue: r.core ? r.kind : src ? src.descriptor : `${r.kind}Kind`,
    webhookGroups: r.qualifiedGroup === "" ? '""' : r.qualifiedGroup,
    mutatePath: o.defaultingPath ?? `/mutate-${webhookGroupPath}-${r.version}-${r.kindLower}`,
    validatePath: o.validationPath ?? `/validate-${webhookGroupPath}-${r.version}-${r.kindLower}`,
    customMutatePath: o.defaultingPath !== undefined,
    customValidatePath: o.validationPath !== undefined,
    sampleSpec: r.core && r.kind === "Pod" ? '{ containers: [{ name: "app", image: "busybox" }] }' : "{}",
    // An external kind's type and descriptor come from where create api took them (a generated file,
    // a project file or a package), seen from internal/webhook/<group>/<version>/.
    external: src !== undefined,
    externalImport: src ? typeImportFrom(`internal/webhook/${r.groupDir}${r.version}/`, src) : "",
  };
  if (src) {
    stageGenerated(ctx.scaffold.fs, src.files, o.force);
    const dep = src.dependency;
    if (dep) ctx.scaffold.edit("package.json", (text) => addDependency(text, dep.name, dep.spec));
  }
  const s = ctx.scaffold;
  const set = "typescript/webhook";
  // The webhook server, its Service and certificates serve every webhook type, conversion included.
  for (const t of templateSet(set)) {
    if (t.template.includes("/internal/")) continue;
    s.template(t, data);
  }
  const networkPolicies = "config/network-policy/kustomization.yaml";
  s.edit(networkPolicies, (text) =>
    addYamlSeqItem(networkPolicies, text, "resources", "allow-webhook-traffic.yaml", { first: true }),
  );
  s.edit("config/default/kustomization.yaml", (text) => {
    let out = text;
    for (const block of defaultKustomizeWebhookBlocks(s)) out = uncomment(out, block);
    if (o.validation)
      out = uncomment(
        out,
        caInjection(
          s,
          "ValidatingWebhook (--programmatic-validation)",
          "ValidatingWebhookConfiguration",
          " # This name should match the one in certificate.yaml",
        ),
      );
    if (o.defaulting)
      out = uncomment(
        out,
        caInjection(s, "DefaultingWebhook (--defaulting )", "MutatingWebhookConfiguration"),
      );
    return out;
  });
  // config/webhook/manifests.yaml is what `make manifests` writes from admission webhook markers: a
  // project with only conversion webhooks has none, and kustomize fails on a resource that is missing.
  const admission = o.defaulting || o.validation;
  const hasAdmission =
    admission || (ctx.config.resources ?? []).some((x) => x.webhooks?.defaulting || x.webhooks?.validation);
  const webhooks = "config/webhook/kustomization.yaml";
  s.edit(webhooks, (text) =>
    hasAdmission
      ? addYamlSeqItem(webhooks, text, "resources", "manifests.yaml", { first: true })
      : removeYamlSeqItem(webhooks, text, "resources", "manifests.yaml"),
  );
  if (admission) createAdmissionWebhook(ctx, r, o, data);
  if (o.conversion) await createConversion(ctx, r, o.spokes ?? [], o.force, data);
}

function createAdmissionWebhook(ctx: PluginContext, r: ResourceModel, o: WebhookOptions, data: object): void {
  const s = ctx.scaffold;
  const set = "typescript/webhook";
  const force = { force: o.force };
  // One handler file holds every webhook type of the kind: adding a type later needs --force, and the
  // command then passes the merged types so the rewritten file keeps the earlier ones.
  s.template(
    file(set, "internal/webhook/{{groupDir}}{{version}}/{{kindLower}}_webhook.ts", "error"),
    data,
    force,
  );
  s.template(
    file(set, "internal/webhook/{{groupDir}}{{version}}/{{kindLower}}_webhook.test.ts", "error"),
    data,
    force,
  );
  s.insert("cmd/main.ts", admissionWebhookWiring(r));
  addWebhookCheck(s, r, o, data as { mutatePath: string; validatePath: string });
  upsertResource(ctx.config, {
    ...resourceEntry(r),
    external: o.source?.external || undefined,
    module: o.source?.module,
    webhooks: {
      defaulting: o.defaulting || undefined,
      validation: o.validation || undefined,
      defaultingPath: o.defaulting ? o.defaultingPath : undefined,
      validationPath: o.validation ? o.validationPath : undefined,
      webhookVersion: "v1",
    },
  });
}

export const typescriptPlugin: Plugin = {
  key: TYPESCRIPT_PLUGIN_KEY,
  description: "TypeScript operator project with Kubebuilder's layout (go/v4 + kustomize/v2 equivalent)",
  init,
  createApi,
  createWebhook,
};
