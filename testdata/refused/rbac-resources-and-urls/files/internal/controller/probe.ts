// +kubebuilder:rbac:groups="",resources=pods,urls=/metrics,verbs=get
export const probe = true;
