// +kubebuilder:object:generate=true
// +groupName=skippkg.kbts.test
export const GroupVersion = { group: "skippkg.kbts.test", version: "v1" } as const;
