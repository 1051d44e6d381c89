/**
 * One object of the kustomize output as a Helm template, with Kubebuilder helm/v2-alpha's semantics:
 * names and the namespace follow the release, labels are Helm's, each optional part renders only when
 * its value enables it (crd, webhook, certManager, metrics, prometheus, networkPolicy, rbac.helpers,
 * serviceAccount), ClusterRoles become Roles under rbac.namespaced, and the manager Deployment reads
 * image, replicas, args, env, resources, scheduling and security settings from values.yaml.
 */
import { argName } from "./extract.js";
import { type JsonMap, type KubeObject, managerContainer } from "./manifests.js";
import { type BlockRender, Slots, toYamlLine } from "./slots.js";

export interface ChartNames {
  /** The chart's name and its helpers' prefix ("<chart>.resourceName"). */
  chart: string;
  /** kustomize's namePrefix without the dash. */
  prefix: string;
  /** The manager's namespace in the kustomize output: the release namespace in the chart. */
  namespace: string;
  /** Every object name of the output (prefixed), longest first, so a longer one wins a match. */
  names: string[];
  /** The manager's ServiceAccount name. */
  serviceAccount: string;
}

const CERT_WEBHOOK = "and .Values.certManager.enabled .Values.webhook.enabled";
const CERT_METRICS = "and .Values.certManager.enabled .Values.metrics.enabled .Values.metrics.secure";
/** Without cert-manager the manager keeps its own webhook certificate (kbts' config/certrotation). */
const SELF_CERT_WEBHOOK = "and .Values.webhook.enabled (not .Values.certManager.enabled)";

export function resourceName(n: ChartNames, name: string): string {
  const suffix = name.startsWith(`${n.prefix}-`) ? name.slice(n.prefix.length + 1) : name;
  return `{{ include "${n.chart}.resourceName" (dict "suffix" "${suffix}" "context" $) }}`;
}

/** Release-relative references inside a string: prefixed names, the namespace (alone, as ns/, .ns.). */
function templateString(n: ChartNames, value: string): string | undefined {
  if (value === n.namespace) return "{{ .Release.Namespace }}";
  if (n.names.includes(value)) return resourceName(n, value);
  const names = n.names.map(escapeRegExp).join("|");
  const pattern = new RegExp(
    `(?<![a-z0-9-])(?:${names ? `(${names})|` : ""}(${escapeRegExp(n.namespace)}))(?=[./]|$)`,
    "g",
  );
  let changed = false;
  const out = value.replace(pattern, (_m, name: string | undefined) => {
    changed = true;
    return name ? resourceName(n, name) : "{{ .Release.Namespace }}";
  });
  if (!changed) return undefined;
  // Helm renders the template before YAML reads it: quotes (when the text needs them) go around it as is.
  return /^[A-Za-z0-9._/-]+$/.test(value) ? out : `"${out}"`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Replaces every string in `node` that names the project's objects or namespace. */
function templateStrings(n: ChartNames, slots: Slots, node: unknown, path: string[]): unknown {
  if (Array.isArray(node)) return node.map((v, i) => templateStrings(n, slots, v, [...path, String(i)]));
  if (node !== null && typeof node === "object") {
    const out: JsonMap = {};
    for (const [k, v] of Object.entries(node as JsonMap)) out[k] = templateStrings(n, slots, v, [...path, k]);
    // A ServiceAccount reference: the chart's own, or the one values.yaml names.
    const o = node as JsonMap;
    if (o.kind === "ServiceAccount" && o.name === n.serviceAccount && path.at(-2) === "subjects") {
      out.name = slots.inline(`{{ include "${n.chart}.serviceAccountName" . }}`);
    }
    return out;
  }
  if (typeof node !== "string") return node;
  const key = path.at(-1) ?? "";
  if (key === "serviceAccountName" && node === n.serviceAccount) {
    return slots.inline(`{{ include "${n.chart}.serviceAccountName" . }}`);
  }
  // A write guard's match on the manager's user name: the release's namespace and ServiceAccount.
  const user = `system:serviceaccount:${n.namespace}:${n.serviceAccount}`;
  if (key === "expression" && node.includes(`'${user}'`)) {
    const release = `system:serviceaccount:{{ .Release.Namespace }}:{{ include "${n.chart}.serviceAccountName" . }}`;
    return slots.inline(JSON.stringify(node).replaceAll(`'${user}'`, `'${release}'`));
  }
  const templated = templateString(n, node);
  return templated === undefined ? node : slots.inline(templated);
}

/** Helm's labels on an object's own metadata; the project name label follows nameOverride everywhere. */
function labelsBlock(
  n: ChartNames,
  labels: Record<string, string>,
  own: boolean,
  extra?: string,
): BlockRender {
  return (indent) => {
    const child = `${indent}  `;
    const lines: string[] = [];
    const entries = Object.entries(labels).filter(
      ([k]) =>
        !own || !["app.kubernetes.io/managed-by", "app.kubernetes.io/instance", "helm.sh/chart"].includes(k),
    );
    if (own) {
      lines.push(`${child}app.kubernetes.io/managed-by: {{ .Release.Service }}`);
      lines.push(`${child}app.kubernetes.io/instance: {{ .Release.Name }}`);
      lines.push(`${child}helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version | replace "+" "_" }}`);
    }
    for (const [k, v] of entries) {
      const value =
        k === "app.kubernetes.io/name" && v === n.chart
          ? `{{ include "${n.chart}.name" . }}`
          : quoteIfNeeded(v);
      lines.push(`${child}${k}: ${value}`);
    }
    if (extra) {
      lines.push(`${child}{{- with ${extra} }}`, toYamlLine(".", child, 0), `${child}{{- end }}`);
    }
    return lines;
  };
}

function quoteIfNeeded(v: string): string {
  return /^[A-Za-z0-9][A-Za-z0-9._/-]*$/.test(v) &&
    !/^(true|false|yes|no|on|off|null|~|[0-9.eE+-]+)$/i.test(v)
    ? v
    : JSON.stringify(v);
}

/** Every `labels:` / `matchLabels:` map under `node` gets Helm's name label (and, at the top, Helm's labels). */
function templateLabels(n: ChartNames, slots: Slots, node: unknown, path: string[]): void {
  if (Array.isArray(node)) {
    for (const [i, v] of node.entries()) templateLabels(n, slots, v, [...path, String(i)]);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const o = node as JsonMap;
  for (const [k, v] of Object.entries(o)) {
    const labelMap =
      k === "labels" ||
      k === "matchLabels" ||
      // A Service's selector is a plain label map.
      (k === "selector" &&
        path.at(-1) === "spec" &&
        v !== null &&
        typeof v === "object" &&
        !("matchLabels" in v));
    if (labelMap && v && typeof v === "object" && !Array.isArray(v)) {
      const own = k === "labels" && path.length === 1 && path[0] === "metadata";
      o[k] = slots.value(labelsBlock(n, v as Record<string, string>, own));
    } else templateLabels(n, slots, v, [...path, k]);
  }
}

/** The whole template of one object, or undefined when the chart does not ship it. */
export function templatize(n: ChartNames, object: KubeObject): string {
  const slots = new Slots();
  const o = structuredClone(object) as KubeObject;
  const manager = o.kind === "Deployment" && o.metadata.name === `${n.prefix}-controller-manager`;
  if (manager) templateManager(n, slots, o);
  if (o.kind === "Service") templateServicePorts(slots, o);
  if (o.kind === "CustomResourceDefinition") {
    const annotations = { ...((o.metadata.annotations as JsonMap | undefined) ?? {}) };
    o.metadata.annotations = slots.value((indent) => [
      ...Object.entries(annotations).map(([k, v]) => `${indent}  ${k}: ${JSON.stringify(v)}`),
      `${indent}  {{- if .Values.crd.keep }}`,
      `${indent}  "helm.sh/resource-policy": keep`,
      `${indent}  {{- end }}`,
    ]);
  }
  if (o.kind === "ValidatingWebhookConfiguration" || o.kind === "MutatingWebhookConfiguration") {
    const annotations = (o.metadata.annotations as Record<string, string> | undefined) ?? {};
    const inject = annotations["cert-manager.io/inject-ca-from"];
    if (inject !== undefined) {
      const value = templateString(n, inject) ?? inject;
      const rest = Object.entries(annotations).filter(([k]) => k !== "cert-manager.io/inject-ca-from");
      o.metadata.annotations = slots.value((indent) => [
        ...rest.map(([k, v]) => `${indent}  ${k}: ${JSON.stringify(v)}`),
        `${indent}  {{- if .Values.certManager.enabled }}`,
        `${indent}  cert-manager.io/inject-ca-from: ${value}`,
        `${indent}  {{- end }}`,
      ]);
    }
  }
  const rbacSwitch =
    (o.kind === "ClusterRole" || o.kind === "ClusterRoleBinding") && !isMetricsAuth(o.metadata.name);
  const templated = templateStrings(n, slots, o, []) as KubeObject;
  // metadata.name: the release's, except CRDs (their name is the API's) and the ServiceAccount's own.
  if (o.kind !== "CustomResourceDefinition")
    templated.metadata.name = slots.inline(resourceName(n, o.metadata.name));
  templateLabels(n, slots, templated, []);
  if (rbacSwitch) {
    const kind = o.kind;
    const namespaced = kind === "ClusterRole" ? "Role" : "RoleBinding";
    templated.kind = slots.key((indent) => [
      `${indent}{{- if .Values.rbac.namespaced }}`,
      `${indent}kind: ${namespaced}`,
      `${indent}{{- else }}`,
      `${indent}kind: ${kind}`,
      `${indent}{{- end }}`,
    ]);
    const metadata = templated.metadata as JsonMap;
    templated.metadata = {
      ...metadata,
      namespace: slots.key((indent) => [
        `${indent}{{- if .Values.rbac.namespaced }}`,
        `${indent}namespace: {{ .Release.Namespace }}`,
        `${indent}{{- end }}`,
      ]),
    } as KubeObject["metadata"];
    const roleRef = templated.roleRef as JsonMap | undefined;
    if (roleRef?.kind === "ClusterRole" && kind === "ClusterRoleBinding") {
      roleRef.kind = slots.inline("{{ if .Values.rbac.namespaced }}Role{{ else }}ClusterRole{{ end }}");
    }
  }
  const body = slots.render(templated).trimEnd();
  const condition = conditionOf(n, object);
  const guarded = condition ? `{{- if ${condition} }}\n${body}\n{{- end }}` : body;
  if (object.kind === "CustomResourceDefinition" && hasConversionWebhook(object)) {
    return `{{- if and .Values.crd.enabled (not .Values.webhook.enabled) }}
{{- fail "webhook.enabled must be true: the CRD ${object.metadata.name} converts through the webhook" }}
{{- end }}
${guarded}\n`;
  }
  return `${guarded}\n`;
}

function isMetricsAuth(name: string): boolean {
  return (
    name.endsWith("-metrics-auth-role") ||
    name.endsWith("-metrics-auth-rolebinding") ||
    name.endsWith("-metrics-reader")
  );
}

function hasConversionWebhook(o: KubeObject): boolean {
  const spec = o.spec as { conversion?: { strategy?: string } } | undefined;
  return spec?.conversion?.strategy === "Webhook";
}

/** The value that turns an object on, as Kubebuilder's chart decides it; undefined: always rendered. */
export function conditionOf(n: ChartNames, o: KubeObject): string | undefined {
  const name = o.metadata.name;
  switch (o.kind) {
    case "CustomResourceDefinition":
      return ".Values.crd.enabled";
    case "Certificate":
      if (name.endsWith("-metrics-certs") || name.endsWith("-metrics-cert")) return CERT_METRICS;
      if (name === `${n.prefix}-serving-cert`) return CERT_WEBHOOK;
      return ".Values.certManager.enabled";
    case "Issuer":
      return ".Values.certManager.enabled";
    case "ServiceMonitor":
      return ".Values.prometheus.enabled";
    case "NetworkPolicy":
      if (name.endsWith("allow-webhook-traffic"))
        return "and .Values.networkPolicy.enabled .Values.webhook.enabled";
      if (name.endsWith("allow-metrics-traffic"))
        return "and .Values.networkPolicy.enabled .Values.metrics.enabled";
      return ".Values.networkPolicy.enabled";
    case "ServiceAccount":
      return name === n.serviceAccount ? ".Values.serviceAccount.enabled" : undefined;
    case "ValidatingWebhookConfiguration":
    case "MutatingWebhookConfiguration":
      return ".Values.webhook.enabled";
    case "Service":
      if (name.endsWith("-metrics-service")) return ".Values.metrics.enabled";
      if (name.endsWith("-webhook-service")) return ".Values.webhook.enabled";
      return undefined;
    case "Deployment":
      return name === `${n.prefix}-controller-manager`
        ? `or (not (hasKey .Values.manager "enabled")) .Values.manager.enabled`
        : undefined;
    case "Role":
    case "ClusterRole":
    case "RoleBinding":
    case "ClusterRoleBinding":
      if (/-(admin|editor|viewer)-role(binding)?$/.test(name)) return ".Values.rbac.helpers.enabled";
      if (isMetricsAuth(name)) return "and .Values.metrics.enabled .Values.metrics.secure";
      return undefined;
    default:
      return undefined;
  }
}

/** The metrics Service's port follows metrics.port; the webhook Service's target port, webhook.port. */
function templateServicePorts(slots: Slots, o: KubeObject): void {
  const spec = o.spec as { ports?: JsonMap[] } | undefined;
  for (const p of spec?.ports ?? []) {
    if (o.metadata.name.endsWith("-metrics-service")) {
      p.port = slots.inline("{{ .Values.metrics.port }}");
      p.targetPort = slots.inline("{{ .Values.metrics.port }}");
      p.name = slots.inline("{{ if .Values.metrics.secure }}https{{ else }}http{{ end }}");
    } else if (o.metadata.name.endsWith("-webhook-service")) {
      p.targetPort = slots.inline("{{ .Values.webhook.port }}");
    }
  }
}

/** A `{{- with <expr> }} key: <toYaml> {{- end }}` key, rendered only when the value is set. */
function withKey(key: string, expr: string): BlockRender {
  return (indent) => [
    `${indent}{{- with ${expr} }}`,
    `${indent}${key}:`,
    toYamlLine(".", indent),
    `${indent}{{- end }}`,
  ];
}

function yamlItems(items: unknown[], indent: string): string[] {
  const s = new Slots();
  return s
    .render(items)
    .trimEnd()
    .split("\n")
    .map((l) => `${indent}${l}`);
}

function templateManager(n: ChartNames, slots: Slots, d: KubeObject): void {
  const spec = (d.spec ?? {}) as JsonMap;
  const template = (spec.template ?? {}) as JsonMap;
  const meta = (template.metadata ?? {}) as JsonMap;
  const pod = (template.spec ?? {}) as JsonMap;
  const container = managerContainer(d) ?? {};
  spec.replicas = slots.inline("{{ .Values.manager.replicas }}");
  const deploymentAnnotations = Object.entries((d.metadata.annotations as JsonMap | undefined) ?? {});
  d.metadata.annotations = slots.key((indent) => [
    ...(deploymentAnnotations.length
      ? [
          `${indent}annotations:`,
          ...deploymentAnnotations.map(([k, v]) => `${indent}  ${k}: ${JSON.stringify(v)}`),
        ]
      : [`${indent}{{- if .Values.manager.annotations }}`, `${indent}annotations:`]),
    `${indent}  {{- with .Values.manager.annotations }}`,
    toYamlLine(".", `${indent}  `, 0),
    `${indent}  {{- end }}`,
    ...(deploymentAnnotations.length ? [] : [`${indent}{{- end }}`]),
  ]);
  spec.strategy = slots.key(withKey("strategy", ".Values.manager.strategy"));
  const podAnnotations = (meta.annotations as JsonMap | undefined) ?? {};
  meta.annotations = slots.value((indent) => [
    ...Object.entries(podAnnotations).map(([k, v]) => `${indent}  ${k}: ${JSON.stringify(v)}`),
    `${indent}  {{- with .Values.manager.pod }}{{- with .annotations }}`,
    toYamlLine(".", `${indent}  `, 0),
    `${indent}  {{- end }}{{- end }}`,
  ]);
  const args = ((container.args as unknown[] | undefined) ?? []).map(String);
  container.args = slots.value((indent) => managerArgs(n, args, indent));
  container.image = slots.inline(
    `"{{ .Values.manager.image.repository }}{{- if not (contains "@" .Values.manager.image.repository) }}:{{ .Values.manager.image.tag | default .Chart.AppVersion }}{{- end }}"`,
  );
  container.imagePullPolicy = slots.inline("{{ .Values.manager.image.pullPolicy }}");
  container.env = slots.value(managerEnv);
  container.resources = slots.key(withKey("resources", ".Values.manager.resources"));
  container.securityContext = slots.key(withKey("securityContext", ".Values.manager.securityContext"));
  for (const probe of ["livenessProbe", "readinessProbe", "startupProbe"]) {
    const p = container[probe] as { httpGet?: JsonMap } | undefined;
    if (p?.httpGet && typeof p.httpGet.port === "number") {
      p.httpGet.port = slots.inline("{{ .Values.manager.healthProbe.port }}");
    }
  }
  const ports = (container.ports as JsonMap[] | undefined) ?? [];
  const webhookPort = ports.find((p) => p.name === "webhook-server");
  const otherPorts = ports.filter((p) => p !== webhookPort);
  container.ports = slots.value((indent) => [
    ...(otherPorts.length ? yamlItems(otherPorts, indent) : []),
    `${indent}{{- if .Values.webhook.enabled }}`,
    `${indent}- containerPort: {{ .Values.webhook.port }}`,
    `${indent}  name: webhook-server`,
    `${indent}  protocol: TCP`,
    `${indent}{{- end }}`,
  ]);
  const mounts = (container.volumeMounts as JsonMap[] | undefined) ?? [];
  container.volumeMounts = slots.value((indent) =>
    certList(mounts, indent, ".Values.manager.extraVolumeMounts", (m) => String(m.name), {
      "webhook-certs": {
        mountPath: "/tmp/k8s-webhook-server/serving-certs",
        name: "webhook-certs",
        readOnly: false,
      },
    }),
  );
  const volumes = (pod.volumes as JsonMap[] | undefined) ?? [];
  pod.volumes = slots.value((indent) =>
    certList(volumes, indent, ".Values.manager.extraVolumes", (v) => String(v.name), {
      "webhook-certs": { emptyDir: {}, name: "webhook-certs" },
    }),
  );
  pod.securityContext = slots.key(withKey("securityContext", ".Values.manager.podSecurityContext"));
  pod.imagePullSecrets = slots.key(withKey("imagePullSecrets", ".Values.manager.imagePullSecrets"));
  pod.nodeSelector = slots.key(withKey("nodeSelector", ".Values.manager.nodeSelector"));
  pod.affinity = slots.key(withKey("affinity", ".Values.manager.affinity"));
  pod.tolerations = slots.key(withKey("tolerations", ".Values.manager.tolerations"));
  pod.topologySpreadConstraints = slots.key(
    withKey("topologySpreadConstraints", ".Values.manager.topologySpreadConstraints"),
  );
  pod.priorityClassName = slots.key((indent) => [
    `${indent}{{- with .Values.manager.priorityClassName }}`,
    `${indent}priorityClassName: {{ . | quote }}`,
    `${indent}{{- end }}`,
  ]);
  pod.terminationGracePeriodSeconds = slots.key((indent) => [
    `${indent}{{- if hasKey .Values.manager "terminationGracePeriodSeconds" }}`,
    `${indent}terminationGracePeriodSeconds: {{ .Values.manager.terminationGracePeriodSeconds }}`,
    `${indent}{{- end }}`,
  ]);
}

/**
 * Volumes or mounts: cert-manager's certificate Secrets only when cert-manager issues them; without
 * cert-manager the webhook's directory is a writable emptyDir the manager fills itself.
 */
function certList(
  items: JsonMap[],
  indent: string,
  extra: string,
  nameOf: (item: JsonMap) => string,
  selfCert: Record<string, JsonMap>,
): string[] {
  const lines: string[] = [];
  for (const item of items) {
    const name = nameOf(item);
    const condition =
      name === "webhook-certs" ? CERT_WEBHOOK : name === "metrics-certs" ? CERT_METRICS : undefined;
    if (condition) lines.push(`${indent}{{- if ${condition} }}`);
    lines.push(...yamlItems([item], indent));
    if (condition) lines.push(`${indent}{{- end }}`);
  }
  const own = selfCert["webhook-certs"];
  if (own && items.some((item) => nameOf(item) === "webhook-certs")) {
    lines.push(`${indent}{{- if ${SELF_CERT_WEBHOOK} }}`, ...yamlItems([own], indent), `${indent}{{- end }}`);
  }
  lines.push(`${indent}{{- with ${extra} }}`, toYamlLine(".", indent, 0), `${indent}{{- end }}`);
  return lines;
}

/** The manager's flags: the chart's own from values (metrics, probes, webhook, certificates), then manager.args. */
function managerArgs(n: ChartNames, args: string[], indent: string): string[] {
  const has = (name: string) => args.some((a) => argName(a) === name);
  const lines: string[] = [
    `${indent}{{- if .Values.metrics.enabled }}`,
    `${indent}- --metrics-bind-address=:{{ .Values.metrics.port }}`,
    `${indent}{{- if not .Values.metrics.secure }}`,
    `${indent}- --metrics-secure=false`,
    `${indent}{{- end }}`,
    `${indent}{{- else }}`,
    `${indent}# 0 turns the metrics server off`,
    `${indent}- --metrics-bind-address=0`,
    `${indent}{{- end }}`,
    `${indent}- --health-probe-bind-address=:{{ .Values.manager.healthProbe.port }}`,
    `${indent}{{- if .Values.webhook.enabled }}`,
    `${indent}- --webhook-port={{ .Values.webhook.port }}`,
    `${indent}{{- end }}`,
  ];
  const certPath = args.find((a) => argName(a) === "--webhook-cert-path");
  if (certPath) {
    lines.push(`${indent}{{- if ${CERT_WEBHOOK} }}`, `${indent}- ${certPath}`, `${indent}{{- end }}`);
  }
  if (certPath || has("--webhook-cert-secret")) {
    lines.push(
      `${indent}{{- if ${SELF_CERT_WEBHOOK} }}`,
      `${indent}- --webhook-cert-path=/tmp/k8s-webhook-server/serving-certs`,
      `${indent}- --webhook-cert-secret=webhook-server-cert`,
      `${indent}- --webhook-service-name=${resourceName(n, `${n.prefix}-webhook-service`)}`,
      `${indent}{{- end }}`,
    );
  }
  const metricsCert = args.find((a) => argName(a) === "--metrics-cert-path");
  if (metricsCert) {
    lines.push(`${indent}{{- if ${CERT_METRICS} }}`, `${indent}- ${metricsCert}`, `${indent}{{- end }}`);
  }
  lines.push(`${indent}{{- range .Values.manager.args }}`, `${indent}- {{ tpl . $ }}`, `${indent}{{- end }}`);
  return lines;
}

/** env from values, envOverrides (`--set manager.envOverrides.NAME=value`) winning over a same-named entry. */
function managerEnv(indent: string): string[] {
  return [
    `${indent}{{- $overrides := .Values.manager.envOverrides | default dict }}`,
    `${indent}{{- if not .Values.webhook.enabled }}`,
    `${indent}- name: ENABLE_WEBHOOKS`,
    `${indent}  value: "false"`,
    `${indent}{{- end }}`,
    `${indent}{{- range .Values.manager.env }}`,
    `${indent}{{- if not (hasKey $overrides .name) }}`,
    `${indent}- {{- toYaml . | nindent ${indent.length + 2} }}`,
    `${indent}{{- end }}`,
    `${indent}{{- end }}`,
    `${indent}{{- range $name, $value := $overrides }}`,
    `${indent}- name: {{ $name }}`,
    `${indent}  value: {{ $value | quote }}`,
    `${indent}{{- end }}`,
  ];
}
