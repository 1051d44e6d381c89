package leader

// +kubebuilder:rbac:groups=coordination.k8s.io,resources=leases,verbs=get;list;watch;create;update;patch;delete,namespace=kbts-system
// +kubebuilder:rbac:groups=core,resources=events,verbs=create;patch,namespace=kbts-system
// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get,namespace=another
// +kubebuilder:rbac:groups=core,resources=namespaces,verbs=get;list;watch

// LeaderReconciler reconciles things.
type LeaderReconciler struct{}
