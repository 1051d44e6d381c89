// +groupName=breaking.kbts.test
export const GroupVersion = { group: "breaking.kbts.test", version: "v2" } as const;
