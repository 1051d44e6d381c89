/**
 * An indexed object store, client-go's ThreadSafeStore without the threads: objects keyed by
 * `namespace/name` (`name` for cluster-scoped), plus named indexes that map an index value to the
 * objects carrying it, by key. The namespace index is built in; field indexes are added by name
 * (the informer cache registers them as `field:<field>`).
 */
import type { KubernetesObject } from "../api/meta.js";

export type IndexFuncOf<T> = (obj: T) => string[];

export const NAMESPACE_INDEX = "namespace";

export function storeKey(obj: KubernetesObject): string {
  const ns = obj.metadata?.namespace;
  const name = obj.metadata?.name ?? "";
  return ns ? `${ns}/${name}` : name;
}

export function keyOf(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

export class Store<T extends KubernetesObject = KubernetesObject> {
  private readonly items = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFuncOf<T>>();
  /**
   * index name → index value → key → object. The index holds the objects themselves, not only their
   * keys (client-go's), so reading one out is a walk of one map: a controller that lists its
   * namespace's thousands of pods on each of their events spent more time looking each key up again.
   */
  private readonly indices = new Map<string, Map<string, Map<string, T>>>();

  constructor() {
    this.addIndex(NAMESPACE_INDEX, (obj) => (obj.metadata?.namespace ? [obj.metadata.namespace] : []));
  }

  get size(): number {
    return this.items.size;
  }

  /** Adds an index and indexes the objects already stored. */
  addIndex(name: string, fn: IndexFuncOf<T>): void {
    if (this.indexers.has(name)) throw new Error(`index "${name}" is already registered`);
    this.indexers.set(name, fn);
    const index = new Map<string, Map<string, T>>();
    this.indices.set(name, index);
    for (const [key, obj] of this.items) addToIndex(index, fn(obj), key, obj);
  }

  hasIndex(name: string): boolean {
    return this.indexers.has(name);
  }

  get(key: string): T | undefined {
    return this.items.get(key);
  }

  keys(): IterableIterator<string> {
    return this.items.keys();
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  /** Inserts or replaces; returns the previous object. */
  set(obj: T): T | undefined {
    const key = storeKey(obj);
    const old = this.items.get(key);
    if (old) this.unindex(key, old);
    this.items.set(key, obj);
    for (const [name, fn] of this.indexers) addToIndex(this.indices.get(name)!, fn(obj), key, obj);
    return old;
  }

  /** Removes by key; returns the removed object. */
  delete(key: string): T | undefined {
    const old = this.items.get(key);
    if (!old) return undefined;
    this.unindex(key, old);
    this.items.delete(key);
    return old;
  }

  /** Objects whose index `name` holds `value`. Throws for an unknown index. */
  byIndex(name: string, value: string): T[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no index "${name}" is registered`);
    const objects = index.get(value);
    return objects ? [...objects.values()] : [];
  }

  private unindex(key: string, obj: T): void {
    for (const [name, fn] of this.indexers) {
      const index = this.indices.get(name)!;
      for (const value of fn(obj)) {
        const objects = index.get(value);
        if (!objects) continue;
        objects.delete(key);
        if (objects.size === 0) index.delete(value);
      }
    }
  }
}

function addToIndex<T>(index: Map<string, Map<string, T>>, values: string[], key: string, obj: T): void {
  for (const value of values) {
    let objects = index.get(value);
    if (!objects) {
      objects = new Map();
      index.set(value, objects);
    }
    objects.set(key, obj);
  }
}
