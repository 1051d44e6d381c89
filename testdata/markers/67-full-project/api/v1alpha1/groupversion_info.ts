// +kubebuilder:object:generate=true
// +groupName=capacity.lab.example.com
export const GroupVersion = { group: "capacity.lab.example.com", version: "v1alpha1" } as const;
