import { defineSpoke } from "@kbts/runtime";
import type { Memcached as MemcachedV1 } from "../v1/memcached_types.js";
import { MemcachedKind as MemcachedV1Kind } from "../v1/zz_generated.kinds.js";
import type { ImageSpec, Memcached } from "./memcached_types.js";
import { MemcachedKind } from "./zz_generated.kinds.js";

function parseImage(image: string): ImageSpec {
  const colon = image.lastIndexOf(":");
  if (colon <= image.lastIndexOf("/")) return { repository: image };
  return { repository: image.slice(0, colon), tag: image.slice(colon + 1) };
}

export const memcachedConversion = defineSpoke(MemcachedV1Kind, MemcachedKind, {
  convertTo(src: Memcached): MemcachedV1 {
    const image = src.spec?.image;
    const ref =
      image === undefined ? undefined : image.tag ? `${image.repository}:${image.tag}` : image.repository;
    return { ...src, apiVersion: "hubspoke.kbts.test/v1", spec: { size: src.spec?.size, image: ref } };
  },
  convertFrom(hub: MemcachedV1): Memcached {
    const image = hub.spec?.image;
    return {
      ...hub,
      apiVersion: "hubspoke.kbts.test/v2",
      spec: { size: hub.spec?.size, image: image === undefined ? undefined : parseImage(image) },
    };
  },
});
