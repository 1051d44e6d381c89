import { charactersOf } from "./scalar.js";

/**
 * Mapping-key order of gopkg.in/yaml.v2's sorter, which controller-gen's output inherits:
 * rune by rune; letters by code point; a non-letter sorts before a letter; digit runs compare
 * numerically ("a2" < "a10"); a prefix sorts first.
 */
export function compareYamlKeys(a: string, b: string): number {
  if (a === b) return 0;
  return yamlKeyLess(a, b) ? -1 : 1;
}

const isLetter = (c: string): boolean => /\p{L}/u.test(c);
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

function yamlKeyLess(a: string, b: string): boolean {
  const ar = charactersOf(a);
  const br = charactersOf(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ac = ar[i] as string;
    const bc = br[i] as string;
    if (ac === bc) continue;
    const al = isLetter(ac);
    const bl = isLetter(bc);
    if (al && bl) return (ac.codePointAt(0) ?? 0) < (bc.codePointAt(0) ?? 0);
    if (al || bl) return bl;
    let an = 0;
    let bn = 0;
    if (ac === "0" || bc === "0") {
      for (let j = i - 1; j >= 0 && isDigit(ar[j] as string); j--) {
        if (ar[j] !== "0") {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai] as string); ai++) an = an * 10 + Number(ar[ai]);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi] as string); bi++) bn = bn * 10 + Number(br[bi]);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return (ac.codePointAt(0) ?? 0) < (bc.codePointAt(0) ?? 0);
  }
  return ar.length < br.length;
}
