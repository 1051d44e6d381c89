// +kubebuilder:object:generate=true
// +groupName=hubspoke.kbts.test
export const GroupVersion = { group: "hubspoke.kbts.test", version: "v1alpha1" } as const;
