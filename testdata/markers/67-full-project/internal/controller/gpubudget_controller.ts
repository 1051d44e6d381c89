// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=capacity.lab.example.com,resources=gpubudgets/finalizers,verbs=update
// +kubebuilder:rbac:groups=core,resources=pods,verbs=get;list;watch

// GPUBudgetReconciler reconciles a GPUBudget object.
export class GPUBudgetReconciler {}
