import {
  type Client,
  ConfigMap,
  controllerManagedBy,
  type EventRecorder,
  type Kind,
  type KubernetesObject,
  type Manager,
  type Reader,
  type Request,
  type Result,
  Secret,
  setControllerReference,
} from "@kbts/runtime";
import type { Widget } from "../../api/v1/widget_types.js";
import { WidgetKind } from "../../api/v1/zz_generated.kinds.js";

// Seeded: delete on widgets is granted and never used; create on configmaps is used and not granted.
// +kubebuilder:rbac:groups=toys.example.com,resources=widgets,verbs=get;list;watch;delete
// +kubebuilder:rbac:groups=toys.example.com,resources=widgets/status,verbs=update
// +kubebuilder:rbac:groups=toys.example.com,resources=widgets/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get;list;watch
// +kubebuilder:rbac:groups=core,resources=secrets,verbs=get
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

export class WidgetReconciler {
  constructor(
    private readonly client: Client,
    private readonly apiReader: Reader,
    private readonly recorder: EventRecorder,
  ) {}

  async reconcile(request: Request): Promise<Result> {
    const widget: Widget = await this.client.get(WidgetKind, request);
    // An uncached Reader needs get alone.
    await this.apiReader.get(Secret, { namespace: request.namespace ?? "", name: "credentials" });
    const cm = { metadata: { namespace: request.namespace ?? "", name: request.name } };
    // Owner reference that blocks the widget's deletion: update on widgets/finalizers.
    setControllerReference(widget, cm);
    await this.client.create(ConfigMap, cm);
    await this.client.status().update(WidgetKind, { ...widget, status: { ready: true } });
    this.recorder.event(widget, "Normal", "Ready", "configured");
    return {};
  }
}

/** The kind is the caller's choice: kbts cannot name its permissions. */
export async function countAll<T extends KubernetesObject>(client: Client, kind: Kind<T>): Promise<number> {
  return (await client.list(kind)).length;
}

export function setupWidgetController(mgr: Manager): void {
  controllerManagedBy(mgr)
    .for(WidgetKind)
    .owns(ConfigMap)
    .complete(new WidgetReconciler(mgr.getClient(), mgr.getAPIReader(), mgr.getEventRecorderFor("widget")));
}
