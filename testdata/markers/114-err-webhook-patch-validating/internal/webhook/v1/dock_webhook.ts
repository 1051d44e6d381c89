// reinvocationPolicy exists only on mutating webhooks: a validating webhook's patch may not set it.

// +kubebuilder:webhook:path=/validate-ships-kbts-test-v1-dock,mutating=false,failurePolicy=fail,sideEffects=None,groups=ships.kbts.test,resources=docks,verbs=create;update,versions=v1,name=vdock-v1.kb.io,admissionReviewVersions=v1,patch=`{"reinvocationPolicy":"Never"}`

export class DockWebhook {}
