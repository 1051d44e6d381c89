package edge

// +kubebuilder:rbac:groups=*,resources=*,verbs=get;list
// +kubebuilder:rbac:groups=apps,resources=deployments;deployments/scale,verbs=get;get;update
// +kubebuilder:rbac:groups=apps,resources=deployments,resourceNames=web,verbs=patch
// +kubebuilder:rbac:groups=apps,resources=deployments,resourceNames=api;web,verbs=patch
// +kubebuilder:rbac:groups=,resources=pods/log;pods/exec,verbs=get;create
// +kubebuilder:rbac:urls=/api;/apis,verbs=get
// +kubebuilder:rbac:urls=/version,verbs=get
// +kubebuilder:rbac:groups=extensions;apps,resources=ingresses,verbs=Watch;LIST
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=*;get
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=*
// +kubebuilder:rbac:groups=policy,resources=podsecuritypolicies,resourceNames=restricted,verbs=use,namespace=z-last
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get,namespace=a-first

// EdgeReconciler reconciles things.
type EdgeReconciler struct{}
