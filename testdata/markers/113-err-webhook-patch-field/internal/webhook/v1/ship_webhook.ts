// A patch= field the webhook type does not have is refused (controller-gen decodes the patch strictly):
// a misspelt port, and reinvocationPolicy, which only mutating webhooks have.

// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-ship,mutating=false,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create;update,versions=v1,name=vship-v1.kb.io,admissionReviewVersions=v1,patch=`{"clientConfig":{"service":{"prot":9443}}}`

export class ShipWebhook {}
