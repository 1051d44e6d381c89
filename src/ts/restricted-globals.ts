/**
 * JavaScript's built-in globals as Biome's noShadowRestrictedNames knows them (the PascalCase ones a
 * kind can be named): a file that imports a kind so named carries a biome-ignore for that rule.
 */
const RESTRICTED_GLOBALS = new Set([
  ...["AggregateError", "Array", "ArrayBuffer", "Atomics", "BigInt", "BigInt64Array", "BigUint64Array"],
  ...["Boolean", "DataView", "Date", "Error", "EvalError", "FinalizationRegistry", "Float32Array"],
  ...["Float64Array", "Function", "Infinity", "Int16Array", "Int32Array", "Int8Array", "Intl", "JSON"],
  ...["Map", "Math", "NaN", "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError"],
  ...["Reflect", "RegExp", "Set", "SharedArrayBuffer", "String", "Symbol", "SyntaxError", "TypeError"],
  ...["URIError", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray", "WeakMap", "WeakRef"],
  "WeakSet",
]);

export const isRestrictedGlobal = (name: string): boolean => RESTRICTED_GLOBALS.has(name);

/** The comment above an import of a kind named like a restricted global (OpenShift's Proxy). */
export const RESTRICTED_IMPORT_COMMENT =
  "// biome-ignore lint/suspicious/noShadowRestrictedNames: the kind is named like JavaScript's global";
