// Go's unicode.ToUpper/ToLower/ToTitle and IsUpper/IsLower/IsTitle: simple, one-rune case mapping
// (UnicodeData.txt) as Go 1.19's Unicode 13.0 tables have it. JS's toUpperCase/toLowerCase apply the full
// mapping (SpecialCasing.txt: 'ß' → "SS", 'İ' → "i̇", final sigma) and a newer Unicode edition, so each
// rune is mapped alone here and the results that differ from Go's are corrected.

/** Case pairs encoded after Unicode 13.0: Go 1.19 leaves both sides unchanged. */
const POST_UNICODE_13_CASED: ReadonlyArray<readonly [number, number]> = [
  [0x1c89, 0x1c8a], // Cyrillic TJE (16.0)
  [0x2c2f, 0x2c2f], // Glagolitic caudate chrivi (14.0)
  [0x2c5f, 0x2c5f],
  [0xa7c0, 0xa7c1], // Latin old Polish O (14.0)
  [0xa7cb, 0xa7dc], // Latin additions of 14.0-17.0 (also the new upper cases of U+0264 and U+019B)
  [0x10570, 0x105bf], // Vithkuqi (14.0)
  [0x10d50, 0x10d8f], // Garay (16.0)
  [0x16ea0, 0x16edf], // Beria Erfe (17.0)
];

function isPostUnicode13(cp: number): boolean {
  return POST_UNICODE_13_CASED.some(([lo, hi]) => cp >= lo && cp <= hi);
}

/** The single rune of s, or undefined when a full case mapping expanded it. */
function singleRune(s: string): number | undefined {
  const cp = s.codePointAt(0)!;
  return s.length === (cp > 0xffff ? 2 : 1) ? cp : undefined;
}

/**
 * Runes whose full upper case has several runes but whose simple upper case is another rune: Greek
 * vowels with ypogegrammeni map to their prosgegrammeni capitals (U+1F80 'ᾀ' → U+1F88 'ᾈ').
 */
function expandedUpperSimple(cp: number): number {
  if ((cp >= 0x1f80 && cp <= 0x1f87) || (cp >= 0x1f90 && cp <= 0x1f97) || (cp >= 0x1fa0 && cp <= 0x1fa7)) return cp + 8;
  if (cp === 0x1fb3 || cp === 0x1fc3 || cp === 0x1ff3) return cp + 9;
  return cp;
}

function guarded(cp: number, mapped: number): number {
  return isPostUnicode13(cp) || isPostUnicode13(mapped) ? cp : mapped;
}

/** unicode.ToUpper. */
export function goToUpperRune(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp;
  return guarded(cp, singleRune(String.fromCodePoint(cp).toUpperCase()) ?? expandedUpperSimple(cp));
}

/** unicode.ToLower. The only full lower case of several runes is U+0130 'İ', whose simple one is 'i'. */
export function goToLowerRune(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (cp === 0x130) return 0x69;
  return guarded(cp, singleRune(String.fromCodePoint(cp).toLowerCase()) ?? cp);
}

/** Runes whose title case is not their upper case: the DŽ/LJ/NJ/DZ digraphs, and Georgian Mkhedruli (itself). */
const TITLE_DIGRAPHS: ReadonlyMap<number, number> = new Map([
  [0x1c4, 0x1c5], [0x1c5, 0x1c5], [0x1c6, 0x1c5],
  [0x1c7, 0x1c8], [0x1c8, 0x1c8], [0x1c9, 0x1c8],
  [0x1ca, 0x1cb], [0x1cb, 0x1cb], [0x1cc, 0x1cb],
  [0x1f1, 0x1f2], [0x1f2, 0x1f2], [0x1f3, 0x1f2],
]);

/** unicode.ToTitle. */
export function goToTitleRune(cp: number): number {
  const digraph = TITLE_DIGRAPHS.get(cp);
  if (digraph !== undefined) return digraph;
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return cp;
  return goToUpperRune(cp);
}

const mapRunes = (s: string, f: (cp: number) => number): string => {
  let out = '';
  for (const ch of s) out += String.fromCodePoint(f(ch.codePointAt(0)!));
  return out;
};

/** strings.ToUpper. */
export const goToUpper = (s: string): string => mapRunes(s, goToUpperRune);
/** strings.ToLower. */
export const goToLower = (s: string): string => mapRunes(s, goToLowerRune);

/** unicode.IsUpper / IsLower / IsTitle: the general categories Lu, Ll and Lt. */
export const goIsUpper = (ch: string): boolean => /^\p{Lu}$/u.test(ch);
export const goIsLower = (ch: string): boolean => /^\p{Ll}$/u.test(ch);
export const goIsTitle = (ch: string): boolean => /^\p{Lt}$/u.test(ch);
