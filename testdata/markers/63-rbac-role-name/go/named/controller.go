package named

// +kubebuilder:rbac:groups=core,resources=services,verbs=get;list
// +kubebuilder:rbac:groups=core,resources=secrets,verbs=get,roleName=secret-reader
// +kubebuilder:rbac:groups=core,resources=endpoints,verbs=get,namespace=ops,roleName=ops-reader

// NamedReconciler reconciles things.
type NamedReconciler struct{}
