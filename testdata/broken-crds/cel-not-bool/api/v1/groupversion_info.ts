// +groupName=celnotbool.broken.kbts.test
export const GroupVersion = { group: "celnotbool.broken.kbts.test", version: "v1" } as const;
