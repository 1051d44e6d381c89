import {
  addFinalizer,
  type Client,
  ConfigMap,
  createOrUpdate,
  Deployment,
  type Kind,
  leaseLock,
  type Manager,
  setOwnerReference,
} from "@kbts/runtime";
import type { Widget } from "../../api/v1/widget_types.js";
import { WidgetKind } from "../../api/v1/zz_generated.kinds.js";

// One call of each kind the lint follows; check.test.ts lists what each needs.
// +kubebuilder:rbac:groups=toys.example.com,resources=widgets,verbs=get;list;watch;update;patch;create
// +kubebuilder:rbac:groups=toys.example.com,resources=widgets/status,verbs=patch
// +kubebuilder:rbac:groups=toys.example.com,resources=widgets/finalizers,verbs=update
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update
// +kubebuilder:rbac:groups=apps,resources=deployments/scale,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;create;update

const kinds = { configMaps: ConfigMap };

/** A Kind<Widget> parameter: its type names the kind, whatever the caller passes. */
async function readWidget(client: Client, kind: Kind<Widget>, name: string): Promise<Widget> {
  return client.get(kind, { namespace: "default", name });
}

export async function everyCall(mgr: Manager, client: Client): Promise<void> {
  const widget = await readWidget(client, WidgetKind, "w");
  // A finalizer on a widget: update on widgets/finalizers (and the update itself on widgets).
  addFinalizer(widget, "toys.example.com/cleanup");
  await client.update(WidgetKind, widget);
  await client.status().patch(WidgetKind, widget, { type: "merge", data: { status: { ready: true } } });
  await client.apply(WidgetKind, widget, { fieldManager: "toys" });
  const deployment = { metadata: { namespace: "default", name: "w" } };
  // Not blocking the owner's deletion: no finalizers permission.
  setOwnerReference(widget, deployment, { blockOwnerDeletion: false });
  await createOrUpdate(client, Deployment, deployment, () => {});
  const scale = client.subResource("scale");
  await scale.update(Deployment, deployment);
  await client.get(kinds.configMaps, { namespace: "default", name: "settings" });
  await mgr.getCache().indexField(ConfigMap, "data.key", () => []);
  leaseLock(client, "default", "toys-lock");
}
