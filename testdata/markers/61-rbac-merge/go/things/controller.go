package things

// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=watch;get
// +kubebuilder:rbac:groups=apps,resources=statefulsets,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch
// +kubebuilder:rbac:groups=apps;batch,resources=replicasets;cronjobs,verbs=delete
// +kubebuilder:rbac:groups=core,resources=configmaps,resourceNames=settings;flags,verbs=get;update
// +kubebuilder:rbac:groups=core,resources=secrets,resourceNames=settings;flags,verbs=get;update
// +kubebuilder:rbac:urls=/metrics;/healthz,verbs=get
// +kubebuilder:rbac:urls=/debug/*,verbs=get
// +kubebuilder:rbac:groups=things.kbts.test,resources=*,verbs=*
// +kubebuilder:rbac:groups=things.kbts.test,resources=gadgets,verbs=get;*
// +kubebuilder:rbac:groups={coordination.k8s.io},resources={leases},verbs={get,create,update}

// ThingsReconciler reconciles things.
type ThingsReconciler struct{}
