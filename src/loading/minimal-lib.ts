/**
 * The few global types API files use, instead of TypeScript's lib.*.d.ts: parsing and binding the
 * real lib costs more than the rest of a run. Library types are recognised by name (loading/type-names.ts),
 * so only their shapes matter here: Array for element types, the mapped utility types for properties.
 */
export const KBTS_LIB_PATH = "/__kbts__/lib.kbts.d.ts";

export const KBTS_LIB = `/// <reference no-default-lib="true"/>
interface Array<T> { length: number; [n: number]: T; }
interface ReadonlyArray<T> { readonly length: number; readonly [n: number]: T; }
interface Boolean {}
interface Function {}
interface CallableFunction {}
interface NewableFunction {}
interface IArguments {}
interface Number {}
interface Object {}
interface RegExp {}
interface String { readonly length: number; }
interface Symbol {}
interface TemplateStringsArray extends ReadonlyArray<string> {}
interface Uint8Array { readonly length: number; }
interface Date { getTime(): number; }
interface Map<K, V> { readonly size: number; get(key: K): V | undefined; }
interface Set<T> { readonly size: number; has(value: T): boolean; }
interface Promise<T> { then(f: (value: T) => void): void; }
type PropertyKey = string | number | symbol;
type Partial<T> = { [P in keyof T]?: T[P] };
type Required<T> = { [P in keyof T]-?: T[P] };
type Readonly<T> = { readonly [P in keyof T]: T[P] };
type Pick<T, K extends keyof T> = { [P in K]: T[P] };
type Record<K extends keyof any, T> = { [P in K]: T };
type Exclude<T, U> = T extends U ? never : T;
type Extract<T, U> = T extends U ? T : never;
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>;
type NonNullable<T> = T & {};
`;
