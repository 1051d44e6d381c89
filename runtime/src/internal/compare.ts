/** Ordinal string order (code units, byte order for ASCII), as apimachinery sorts keys: never locale order. */
export const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
