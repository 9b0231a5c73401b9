// .helmignore as Helm's pkg/ignore reads it: one pattern a line, `#` comments, `!` negation, a trailing `/` for
// directories only, patterns without `/` matching a base name, plus Helm's default `templates/.?*`.
import picomatch from 'picomatch';

interface Rule {
  negate: boolean;
  dirOnly: boolean;
  match: (path: string) => boolean;
}

export type IgnoreFn = (path: string, isDir: boolean) => boolean;

function rule(line: string): Rule | undefined {
  let p = line.trim();
  if (p === '' || p.startsWith('#')) return undefined;
  const negate = p.startsWith('!');
  if (negate) p = p.slice(1);
  const dirOnly = p.endsWith('/');
  if (dirOnly) p = p.slice(0, -1);
  p = p.replace(/^\//, '');
  const m = picomatch(p, { dot: true });
  const match = p.includes('/') ? m : (path: string) => m(path.split('/').pop()!);
  return { negate, dirOnly, match };
}

/** Whether a path (relative to the chart, `/`-separated) is ignored. */
export function parseHelmignore(text: string): IgnoreFn {
  const rules = ['templates/.?*', ...text.split('\n')].map(rule).filter((r): r is Rule => r !== undefined);
  return (path, isDir) => {
    if (path === '.') return false;
    let ignored = false;
    for (const r of rules) {
      if (r.dirOnly && !isDir) continue;
      if (r.match(path)) ignored = !r.negate;
    }
    return ignored;
  };
}
