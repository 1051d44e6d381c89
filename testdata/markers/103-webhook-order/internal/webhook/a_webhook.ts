// +kubebuilder:webhook:path=/v-a-b,mutating=false,failurePolicy=fail,sideEffects=None,groups=order.kbts.test,resources=things,verbs=create,versions=v1,admissionReviewVersions=v1,name=a-b.order.kbts.test
// +kubebuilder:webhook:path=/v-a1,mutating=false,failurePolicy=fail,sideEffects=None,groups=order.kbts.test,resources=things,verbs=create,versions=v1,admissionReviewVersions=v1,name=a1.order.kbts.test
// +kubebuilder:webhook:path=/m-b,mutating=true,failurePolicy=fail,sideEffects=None,groups=order.kbts.test,resources=things,verbs=update,versions=v1,admissionReviewVersions=v1,name=b.order.kbts.test,reinvocationPolicy=Never

// First file.
export class A {}
