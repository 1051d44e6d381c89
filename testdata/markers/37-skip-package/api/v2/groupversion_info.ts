// +kubebuilder:object:generate=true
// +kubebuilder:skip
// +groupName=skippkg.kbts.test
export const GroupVersion = { group: "skippkg.kbts.test", version: "v2" } as const;
