// +kubebuilder:object:generate=true
// +versionName=v1beta2
// +groupName=vname.kbts.test
export const GroupVersion = { group: "vname.kbts.test", version: "v1" } as const;
