import { defineSpoke } from "@kbts/runtime";
import type { Memcached as MemcachedV1 } from "../v1/memcached_types.js";
import { MemcachedKind as MemcachedV1Kind } from "../v1/zz_generated.kinds.js";
import type { Memcached } from "./memcached_types.js";
import { MemcachedKind } from "./zz_generated.kinds.js";

// A spoke's conversion functions beside its types: they import the hub's types, and the CRD of this
// version must still come only from memcached_types.ts.
export const memcachedConversion = defineSpoke(MemcachedV1Kind, MemcachedKind, {
  convertTo(src: Memcached): MemcachedV1 {
    const { replicas, ...spec } = src.spec ?? {};
    return { ...src, apiVersion: "hubspoke.kbts.test/v1", spec: { ...spec, size: replicas } };
  },
  convertFrom(hub: MemcachedV1): Memcached {
    const { size, ...spec } = hub.spec ?? {};
    return { ...hub, apiVersion: "hubspoke.kbts.test/v1alpha1", spec: { ...spec, replicas: size } };
  },
});
