// +groupName=breaking.kbts.test
export const GroupVersion = { group: "breaking.kbts.test", version: "v1" } as const;
