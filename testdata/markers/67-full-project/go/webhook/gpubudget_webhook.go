package webhook

// +kubebuilder:webhook:path=/validate-capacity-lab-example-com-v1alpha1-gpubudget,mutating=false,failurePolicy=fail,sideEffects=None,groups=capacity.lab.example.com,resources=gpubudgets,verbs=create;update,versions=v1alpha1,name=vgpubudget-v1alpha1.kb.io,admissionReviewVersions=v1

// GPUBudgetCustomValidator validates GPUBudgets.
type GPUBudgetCustomValidator struct{}
