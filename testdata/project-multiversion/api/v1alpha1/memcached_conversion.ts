/*
Copyright 2026.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

import { defineSpoke } from "@kbts/runtime";
import type { Memcached as MemcachedV1 } from "../v1/memcached_types.js";
import { MemcachedKind as MemcachedV1Kind } from "../v1/zz_generated.kinds.js";
import type { Memcached } from "./memcached_types.js";
import { MemcachedKind } from "./zz_generated.kinds.js";

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!

/**
 * memcachedConversion converts Memcached between v1alpha1 (this spoke) and v1 (the hub, the
 * storage version). Fields with the same name and schema in both versions are copied; each TODO(user)
 * marks a field to convert by hand. Keep round trips lossless: v1alpha1 → v1 → v1alpha1
 * must give back the object it started from (the scaffolded test checks it on config/samples).
 * A function that throws fails the API server's request with the error's message.
 */
export const memcachedConversion = defineSpoke(MemcachedV1Kind, MemcachedKind, {
  /** convertTo converts this Memcached (v1alpha1) to the hub version (v1). */
  convertTo(src: Memcached): MemcachedV1 {
    return {
      apiVersion: "cache.example.com/v1",
      kind: "Memcached",
      metadata: src.metadata,
      spec: {
        image: src.spec.image,
        // v1 renamed replicas to size.
        size: src.spec.replicas,
      },
      status: src.status,
    };
  },

  /** convertFrom converts the hub version (v1) to this Memcached (v1alpha1). */
  convertFrom(hub: MemcachedV1): Memcached {
    return {
      apiVersion: "cache.example.com/v1alpha1",
      kind: "Memcached",
      metadata: hub.metadata,
      spec: {
        image: hub.spec.image,
        replicas: hub.spec.size,
      },
      status: hub.status,
    };
  },
});
