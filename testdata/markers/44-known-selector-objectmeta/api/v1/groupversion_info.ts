// +kubebuilder:object:generate=true
// +groupName=selector.kbts.test
export const GroupVersion = { group: "selector.kbts.test", version: "v1" } as const;
