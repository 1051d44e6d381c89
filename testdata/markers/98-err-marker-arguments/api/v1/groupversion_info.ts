// +kubebuilder:object:generate=true
// +groupName=args.kbts.test
export const GroupVersion = { group: "args.kbts.test", version: "v1" } as const;
