/**
 * The one order kbts sorts names in: ordinal (UTF-16 code units, which for the ASCII names of
 * Kubernetes objects is byte order, as Go's sort.Strings), never locale order, so output is the
 * same on every machine and matches controller-gen's.
 */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
