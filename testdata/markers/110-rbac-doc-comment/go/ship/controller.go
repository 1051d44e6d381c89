// Markers in the doc comment of a type or func (no blank line between them and the declaration)
// are ignored by controller-gen.
package ship

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list

// ShipReconciler reconciles ships.
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get
type ShipReconciler struct{}

// Reconcile's doc comment.
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get
func (r *ShipReconciler) Reconcile() {}

// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=create

// SetupShip wires the reconciler.
// +kubebuilder:rbac:groups="",resources=pods,verbs=delete
func SetupShip() {}

// StartShip's body holds a marker: ignored, as controller-gen ignores markers in a func body.
func StartShip() {
	// +kubebuilder:rbac:groups="",resources=services,verbs=get
	return
}
