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

import { hubAndSpokes } from "@kbts/runtime";
import { memcachedConversion as memcachedV1alpha1 } from "../v1alpha1/memcached_conversion.js";
import { memcachedConversion as memcachedV2 } from "../v2/memcached_conversion.js";
import { MemcachedKind } from "./zz_generated.kinds.js";

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!

/**
 * v1 is the conversion hub of Memcached: its storage version (+kubebuilder:storageversion in
 * memcached_types.ts), which every other version (a spoke) converts to and from. These are the
 * spokes; cmd/main.ts serves them at /convert.
 */
export const memcachedSpokes = [memcachedV1alpha1, memcachedV2] as const;

/** memcachedConverter converts a Memcached of any version to any other, through the hub. */
export const memcachedConverter = hubAndSpokes(MemcachedKind, ...memcachedSpokes);
