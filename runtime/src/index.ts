// @kbts/runtime: the public surface. Each module owns one concept; see the folder names.
export type * from "./api/meta.js";
export type * from "./cache/types.js";
export type * from "./client/types.js";
export * from "./kinds.js";
export type * from "./log/types.js";
export type * from "./manager/types.js";
export * from "./reconcile/types.js";
