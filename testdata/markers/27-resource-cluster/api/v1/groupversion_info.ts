// +kubebuilder:object:generate=true
// +groupName=cluster.kbts.test
export const GroupVersion = { group: "cluster.kbts.test", version: "v1" } as const;
