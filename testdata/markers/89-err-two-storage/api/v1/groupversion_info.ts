// +kubebuilder:object:generate=true
// +groupName=twostorage.kbts.test
export const GroupVersion = { group: "twostorage.kbts.test", version: "v1" } as const;
