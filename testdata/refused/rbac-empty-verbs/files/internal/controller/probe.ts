// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=""
export const probe = true;
