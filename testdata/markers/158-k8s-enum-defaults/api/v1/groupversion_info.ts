// +kubebuilder:object:generate=true
// +groupName=k8senum.kbts.test
export const GroupVersion = { group: "k8senum.kbts.test", version: "v1" } as const;
