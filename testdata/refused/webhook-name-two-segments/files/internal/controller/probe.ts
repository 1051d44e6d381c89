// +kubebuilder:webhook:path=/validate-cache-example-com-v1-probe,mutating=false,groups=cache.example.com,resources=probes,verbs=create;update,versions=v1,sideEffects=None,admissionReviewVersions=v1,failurePolicy=fail,name=vprobe.io
export const probe = true;
