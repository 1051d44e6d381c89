// +groupName=celundeclaredfunction.broken.kbts.test
export const GroupVersion = { group: "celundeclaredfunction.broken.kbts.test", version: "v1" } as const;
