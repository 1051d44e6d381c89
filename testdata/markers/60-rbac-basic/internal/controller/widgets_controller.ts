// widgets reconciles things; its permissions are below.

// +kubebuilder:rbac:groups=apps.kbts.test,resources=widgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=apps.kbts.test,resources=widgets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=apps.kbts.test,resources=widgets/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

export class WidgetsReconciler {}
