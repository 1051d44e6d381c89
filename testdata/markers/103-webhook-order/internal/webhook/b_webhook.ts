// +kubebuilder:webhook:path=/v-a10,mutating=false,failurePolicy=fail,sideEffects=None,groups=order.kbts.test,resources=things,verbs=create,versions=v1,admissionReviewVersions=v1,name=a10.order.kbts.test
// +kubebuilder:webhook:path=/v-a2,mutating=false,failurePolicy=fail,sideEffects=None,groups=order.kbts.test,resources=things,verbs=create,versions=v1,admissionReviewVersions=v1,name=a2.order.kbts.test
// +kubebuilder:webhook:path=/m-z,mutating=true,failurePolicy=fail,sideEffects=None,groups=order.kbts.test,resources=things,verbs=update,versions=v1,admissionReviewVersions=v1,name=z.order.kbts.test

// Second file, read after a_webhook.ts in some orders and before it in others.
export class B {}
