package named

// +kubebuilder:webhookconfiguration:mutating=true,name=ships-mutating
// +kubebuilder:webhookconfiguration:mutating=false,name=ships-validating
// +kubebuilder:webhook:path=/mutate-ships-kbts-test-v1-ship,mutating=true,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create,versions=v1,name=mship-v1.kb.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-ship,mutating=false,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create,versions=v1,name=vship-v1.kb.io,admissionReviewVersions=v1

// NamedWebhook handles admission.
type NamedWebhook struct{}
