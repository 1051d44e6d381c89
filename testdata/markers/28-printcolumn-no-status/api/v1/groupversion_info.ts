// +kubebuilder:object:generate=true
// +groupName=printcol.kbts.test
export const GroupVersion = { group: "printcol.kbts.test", version: "v1" } as const;
