import type { BuiltCrd } from "../crd/build.js";
import type { KbtsError } from "../errors.js";
import type { MarkerCollector } from "../markers/collect.js";

/** Checks beyond controller-gen (paths, list-map keys, defaults, CEL) against the resolved schemas. */
export function checkCrds(_crds: BuiltCrd[], _collector: MarkerCollector, _errors: KbtsError[]): void {}
