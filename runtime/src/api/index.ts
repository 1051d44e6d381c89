export type * from "./meta.js";
