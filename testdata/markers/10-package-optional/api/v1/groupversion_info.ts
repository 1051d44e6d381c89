// +kubebuilder:object:generate=true
// +kubebuilder:validation:Optional
// +groupName=pkgopt.kbts.test
export const GroupVersion = { group: "pkgopt.kbts.test", version: "v1" } as const;
