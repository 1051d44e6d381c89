// +groupName=printcolumnformattypo.broken.kbts.test
export const GroupVersion = { group: "printcolumnformattypo.broken.kbts.test", version: "v1" } as const;
