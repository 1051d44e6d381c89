import { KbtsError } from "../../errors.js";
import { sameGVK } from "../../project/config.js";
import { type ResourceModel, resourceModel } from "../../project/resource.js";
import type { Scaffold } from "../../scaffold/scaffold.js";
import { templateSet } from "../../scaffold/template.js";
import { addYamlMapPair, addYamlSeqItem, setYamlScalar } from "../../scaffold/yaml-edit.js";
import { findPlugin } from "../registry.js";
import type { ApiOptions, Plugin, PluginContext } from "../types.js";
import { addWebhookCheckManifest, webhookCheckKey } from "../typescript/e2e-checks.js";
import { addMakefileFragment } from "../typescript/makefile.js";
import { admissionWebhookWiring, controllerData, controllerWiring } from "../typescript/plugin.js";

/**
 * `gpu-budget/v1-alpha`: a scaffolding plugin in the manner of Kubebuilder's deploy-image. On
 * `kbts create api ... --plugins gpu-budget/v1-alpha` it runs the project's base plugin (types,
 * controller, CRD kustomization, RBAC roles, PROJECT entry), then the base plugin's `create webhook`
 * for core/v1 Pod with programmatic validation, then writes the GPUBudget operator over the stubs:
 * types with markers, the reconciler, the Pod validator, metrics, utilization, tests, observability
 * (config/grafana, config/prometheus), the webhook namespaceSelector patch and the README tutorial.
 * Existing files are edited only at insertion points or through the YAML parser, idempotently; nothing
 * is written unless all succeed.
 */
export const GPU_BUDGET_PLUGIN_KEY = "gpu-budget.kbts.dev/v1-alpha";

/** The plugin's templates: templates/plugins/gpu-budget, each overwriting the base plugin's stub. */
export const TEMPLATE_SET = "plugins/gpu-budget";

/** The extra manager flags, at cmd/main.ts' `flags` insertion point (top of parseArgs' options). */
const FLAGS_FRAGMENT = "plugins/gpu-budget-fragments/main-flags.ts.hbs";

/** The manager's Pod cache transform and shutdown delay, at cmd/main.ts' `manager-options` point. */
const MANAGER_OPTIONS_FRAGMENT = "plugins/gpu-budget-fragments/main-manager-options.ts.hbs";

/** The controller and Pod webhook set-up, at cmd/main.ts' `builder` point. */
const BUILDER_FRAGMENT = "plugins/gpu-budget-fragments/main-builder.ts.hbs";

/** Adds an item to a top-level list of a YAML file (a kustomization's resources or patches). */
function addListItem(
  scaffold: Scaffold,
  path: string,
  key: string,
  item: unknown,
  options: { first?: boolean } = {},
): void {
  scaffold.edit(path, (text) => addYamlSeqItem(path, text, key, item, options));
}

/** The check-rules target (promtool and the dashboard's queries), at the Makefile's insertion point. */
const MAKEFILE_FRAGMENT = "plugins/gpu-budget-fragments/makefile.hbs";

/** A fragment template as insert wants it: its lines, without the final newline. */
function fragment(scaffold: Scaffold, template: string, data: object): string {
  return scaffold.fragment(template, data).replace(/\n$/, "");
}

/**
 * What the e2e suite's Pod webhook check sends (a fragment template): the namespaceSelector and
 * matchConditions this plugin patches onto the webhook let through only a GPU pod in a Deny namespace.
 */
const E2E_WEBHOOK_CHECK_FRAGMENT = "plugins/gpu-budget-fragments/e2e-webhook-check.ts.hbs";

/** The SLI windows the burn-rate alerts read (short and long window of the fast and slow burn). */
const SLO_WINDOWS = ["5m", "30m", "1h", "6h"];

/** The SLOs of config/prometheus/<kind>_rules.yaml: each gets a fast- and a slow-burn alert. */
const SLO_ALERTS = [
  {
    name: "GPUBudgetWebhookErrors",
    record: "webhook_error_ratio",
    slo: "webhook-availability",
    budget: "0.001",
    objective: "99.9% answered without error",
    summary: "The GPU budget webhook fails admissions",
    description: "Pod admissions answered with an error are admitted unchecked (failurePolicy Ignore).",
  },
  {
    name: "GPUBudgetWebhookLatency",
    record: "webhook_slow_ratio",
    slo: "webhook-latency",
    budget: "0.01",
    objective: "99% within 1s",
    summary: "The GPU budget webhook answers slowly",
    description:
      "Slow admissions delay every pod create, and past 10s the API server admits the pod unchecked.",
  },
  {
    name: "GPUBudgetReconcileErrors",
    record: "reconcile_error_ratio",
    slo: "reconcile-success",
    budget: "0.01",
    objective: "99% succeed",
    summary: "The GPUBudget controller fails reconciles",
    description: "Failed reconciles leave budget status stale.",
  },
  {
    name: "GPUBudgetReconcileLatency",
    record: "reconcile_slow_ratio",
    slo: "reconcile-latency",
    budget: "0.01",
    objective: "99% within 1s",
    summary: "The GPUBudget controller reconciles slowly",
    description: "Slow reconciles delay every budget behind them in the queue.",
  },
];

/** Template data: the resource plus the relative paths the base plugin's templates use. */
export function templateData(ctx: PluginContext, r: ResourceModel): Record<string, unknown> {
  const up = r.groupDir === "" ? "../.." : "../../..";
  return {
    ...r,
    projectName: ctx.config.projectName ?? "",
    apiImportFromController: `${up}/api/${r.groupDir}${r.version}`,
    configFromController: `${up}/config`,
    sloWindows: SLO_WINDOWS,
    sloAlerts: SLO_ALERTS,
  };
}

/** Runs another plugin's subcommand, as deploy-image runs go/v4 before writing its own files. */
async function runBase(ctx: PluginContext, resource: ResourceModel, options: ApiOptions): Promise<void> {
  const base = findPlugin(ctx.config.layout?.[0] ?? "typescript/v1");
  if (!base.createApi || !base.createWebhook) {
    throw new Error(`the project's base plugin ${base.key} cannot create APIs and webhooks`);
  }
  await base.createApi(ctx, resource, options);
  const pod = resourceModel(ctx.config, { group: "core", version: "v1", kind: "Pod" }, true);
  const hasPodWebhook = ctx.config.resources?.some(
    (r) => r.core && r.kind === "Pod" && r.webhooks?.validation,
  );
  if (!hasPodWebhook || options.force) {
    // Defaulting too: a Queue budget's pods are gated by the Pod defaulter (internal/webhook/v1/pod_queue.ts).
    await base.createWebhook(ctx, pod, { defaulting: true, validation: true, force: options.force });
  }
}

export function scaffoldGPUBudget(scaffold: Scaffold, data: Record<string, unknown>, r: ResourceModel): void {
  for (const file of templateSet(TEMPLATE_SET, "overwrite")) scaffold.template(file, data);

  // cmd/main.ts, at its insertion points: the operator's flags and manager options, and the controller
  // and Pod webhook set up with them in place of the base plugin's stubs, whose wiring (the base
  // plugin's own fragments) is taken back. The Pod webhook shares the controller's usage tracker and
  // writes reservations, so its set-up is async.
  const main = "cmd/main.ts";
  const base = controllerWiring(r, controllerData(r, undefined));
  const podWebhook = admissionWebhookWiring({ kind: "Pod", kindLower: "pod", groupDir: "", version: "v1" });
  scaffold.remove(main, [...base.imports, ...base.builder, ...podWebhook.builder]);
  scaffold.insert(main, {
    imports: [
      `import { slimPod } from "../internal/gpu/podgpus.js";`,
      `import { setup${r.kind}Controller } from "../internal/controller/${r.groupDir}${r.kindLower}_controller.js";`,
      `import { parseDuration, parsePositiveInt, utilizationFromFlags } from "../internal/utilization/options.js";`,
    ],
    flags: [fragment(scaffold, FLAGS_FRAGMENT, data)],
    "manager-options": [fragment(scaffold, MANAGER_OPTIONS_FRAGMENT, data)],
    builder: [fragment(scaffold, BUILDER_FRAGMENT, data)],
  });

  // Two replicas, both serving the webhook (one leads the controller), and a PodDisruptionBudget so a
  // drain never takes both: admission keeps working through a node's maintenance. The grace covers the
  // shutdown delay (5s) and then the stop itself.
  const manager = "config/manager/manager.yaml";
  scaffold.edit(manager, (text) => setYamlScalar(manager, text, ["spec", "replicas"], 2));
  scaffold.edit(manager, (text) =>
    setYamlScalar(manager, text, ["spec", "template", "spec", "terminationGracePeriodSeconds"], 20),
  );
  addListItem(scaffold, "config/manager/kustomization.yaml", "resources", "pod_disruption_budget.yaml");

  // The write guard of the namespace label (+kbts:guard in the controller): make manifests writes it.
  addListItem(scaffold, "config/rbac/kustomization.yaml", "resources", "write_guards.yaml", { first: true });
  // ...and the same label against everyone else (a tenant who may edit its namespace's labels).
  addListItem(scaffold, "config/rbac/kustomization.yaml", "resources", "enforcement_label_guard.yaml");
  // ...and a Queue budget's scheduling gate against anyone but the operator.
  addListItem(scaffold, "config/rbac/kustomization.yaml", "resources", "queue_gate_guard.yaml");

  // The Pod webhook's namespaceSelector (markers cannot express it) and the PrometheusRule.
  addListItem(scaffold, "config/webhook/kustomization.yaml", "patches", {
    path: "pod_namespace_selector_patch.yaml",
  });
  addListItem(scaffold, "config/webhook/kustomization.yaml", "patches", {
    path: "pod_queue_selector_patch.yaml",
  });
  // Refusals of pods over a full Deny budget, in kube-apiserver, without a webhook call.
  addListItem(scaffold, "config/webhook/kustomization.yaml", "resources", "budget_full_policy.yaml");
  // The e2e suite's Pod webhook check sends what that patch lets through.
  const podCheckKey = webhookCheckKey({ core: true, qualifiedGroup: "", version: "v1", kind: "Pod" });
  addWebhookCheckManifest(scaffold, scaffold.fragment(E2E_WEBHOOK_CHECK_FRAGMENT, { ...data, podCheckKey }));
  addListItem(scaffold, "config/prometheus/kustomization.yaml", "resources", `${r.kindLower}_rules.yaml`);

  // The operator's series carry the budget's namespace; without honorLabels Prometheus would rename it
  // exported_namespace (the target's own namespace label wins) and every alert by namespace would break.
  const monitor = "config/prometheus/monitor.yaml";
  scaffold.edit(monitor, (text) =>
    addYamlMapPair(monitor, text, ["spec", "endpoints", 0], "honorLabels", true, "path"),
  );

  addMakefileFragment(scaffold, MAKEFILE_FRAGMENT, data);
}

export const gpuBudgetPlugin: Plugin = {
  key: GPU_BUDGET_PLUGIN_KEY,
  description: "The GPUBudget operator: GPU budgets per namespace, Pod admission, metrics, alerts, dashboard",
  async createApi(ctx, resource, options) {
    if (ctx.config.namespaced) {
      throw new KbtsError("the GPUBudget operator cannot be namespaced", {
        where: "--plugins gpu-budget/v1-alpha",
        fix: "it counts pods and labels namespaces cluster-wide: scaffold it in a cluster-scoped project (kbts edit --namespaced=false)",
      });
    }
    await runBase(ctx, resource, options);
    scaffoldGPUBudget(ctx.scaffold, templateData(ctx, resource), resource);
    const key = GPU_BUDGET_PLUGIN_KEY;
    const entry = {
      group: resource.group,
      version: resource.version,
      kind: resource.kind,
      domain: resource.domain,
    };
    ctx.config.plugins ??= {};
    const plugins = ctx.config.plugins;
    const mine = (plugins[key] ?? { resources: [] }) as { resources: (typeof entry)[] };
    if (!mine.resources.some((e) => sameGVK(e, entry))) {
      mine.resources.push(entry);
    }
    plugins[key] = mine;
  },
};
