// Webhooks for the mutate test.

// +kubebuilder:webhook:path=/mutate-ships-kbts-test-v1-ship,mutating=true,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create;update,versions=v1,name=mship-v1.kb.io,admissionReviewVersions=v1,reinvocationPolicy=IfNeeded
// +kubebuilder:webhook:url=https://hooks.example.com/mutate-pods,mutating=true,failurePolicy=Ignore,sideEffects=None,groups=core,resources=pods,verbs=*,versions=v1,name=mpod-v1.kb.io,admissionReviewVersions=v1,matchPolicy=Equivalent,reinvocationPolicy=Never,timeoutSeconds=5
// +kubebuilder:webhook:path=/validate-core-v1-pod,mutating=false,failurePolicy=fail,sideEffects=None,groups="",resources=pods,verbs=create,versions=v1,name=vpod-v1.kb.io,admissionReviewVersions=v1

export class MutateWebhook {}
