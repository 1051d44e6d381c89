// +kubebuilder:object:generate=true
// +groupName=quantity.kbts.test
export const GroupVersion = { group: "quantity.kbts.test", version: "v1" } as const;
