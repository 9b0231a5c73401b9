// Changed-file matching with upstream's glob semantics (bmatcuk/doublestar v4 Match) on picomatch: `*` and `?`
// stay within a path segment, `**` as a segment spans zero or more directories (`**/*.tf` matches `main.tf`),
// `{a,b}` alternates, `[...]` and `[!...]` are classes, and dotfiles are ordinary files. doublestar knows neither
// `!` negation nor extglobs, so picomatch's are off; it reads `[!...]` as a literal `!`, so that is rewritten.
import picomatch from 'picomatch';

const options: picomatch.PicomatchOptions = { dot: true, nonegate: true, noextglob: true };

/** An unescaped `[!` opens a negated class in doublestar; picomatch spells it `[^`. */
const bangClass = /(^|[^\\])\[!/g;

export type PathMatcher = (path: string) => boolean;

/** The matcher for one pattern; a pattern picomatch cannot compile matches nothing, as doublestar's errors do. */
export function pathMatcher(pattern: string): PathMatcher {
  try {
    return picomatch(pattern.replace(bangClass, '$1[^'), options);
  } catch {
    return () => false;
  }
}

/** The files, in their order, that any of the patterns matches. */
export function matchFiles(patterns: readonly string[], files: readonly string[]): string[] {
  const matchers = patterns.map(pathMatcher);
  return files.filter((file) => matchers.some((matches) => matches(file)));
}
