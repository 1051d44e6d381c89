import { hubAndSpokes } from "@kbts/runtime";
import { memcachedConversion as memcachedV1alpha1 } from "../v1alpha1/memcached_conversion.js";
import { memcachedConversion as memcachedV2 } from "../v2/memcached_conversion.js";
import { MemcachedKind } from "./zz_generated.kinds.js";

// v1 is the conversion hub: the scaffold's hub file, which the CRD generator must pass over.
export const memcachedSpokes = [memcachedV1alpha1, memcachedV2] as const;

export const memcachedConverter = hubAndSpokes(MemcachedKind, ...memcachedSpokes);
