// +groupName=printcolumntypetypo.broken.kbts.test
export const GroupVersion = { group: "printcolumntypetypo.broken.kbts.test", version: "v1" } as const;
