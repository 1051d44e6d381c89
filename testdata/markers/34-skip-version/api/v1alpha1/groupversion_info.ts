// +kubebuilder:object:generate=true
// +groupName=skipver.kbts.test
export const GroupVersion = { group: "skipver.kbts.test", version: "v1alpha1" } as const;
