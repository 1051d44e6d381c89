package validate

// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-ship,mutating=false,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=ships,verbs=create;update;delete,versions=v1,name=vship-v1.kb.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-dock,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,groups=ships.kbts.test,resources=docks;docks/status,verbs=create;update;connect,versions=v1;v1beta1,name=adock-v1.kb.io,admissionReviewVersions=v1;v1beta1,matchPolicy=Exact,timeoutSeconds=10,serviceName=ships-webhook,serviceNamespace=ships-system,servicePort=9443

// ValidateWebhook handles admission.
type ValidateWebhook struct{}
