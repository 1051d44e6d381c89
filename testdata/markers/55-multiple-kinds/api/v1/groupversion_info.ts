// +kubebuilder:object:generate=true
// +groupName=orchard.kbts.test
export const GroupVersion = { group: "orchard.kbts.test", version: "v1" } as const;
