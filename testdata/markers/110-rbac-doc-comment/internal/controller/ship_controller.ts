// Markers in the doc comment of a class, function or method (no blank line between them and the
// declaration) are ignored, as controller-gen ignores them in a Go type's or func's doc comment.

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list

// ShipReconciler reconciles ships.
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get
export class ShipReconciler {
  // reconcile's doc comment.
  // +kubebuilder:rbac:groups="",resources=configmaps,verbs=get
  async reconcile(): Promise<void> {}
}

// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=create

// setupShip wires the reconciler.
// +kubebuilder:rbac:groups="",resources=pods,verbs=delete
export function setupShip(): void {}

// startShip's body holds a marker: ignored, as controller-gen ignores markers in a func body.
export function startShip(): void {
  // +kubebuilder:rbac:groups="",resources=services,verbs=get
  return;
}
