// sprig's path and filepath functions (Go's path package; filepath is the same on Linux).
import { posix } from 'node:path';
import { goFunc, type FuncMap } from '../../value.ts';

/** path.Clean. */
export function clean(p: string): string {
  if (p === '') return '.';
  const n = posix.normalize(p);
  return n.length > 1 && n.endsWith('/') ? n.slice(0, -1) : n;
}

function base(p: string): string {
  if (p === '') return '.';
  const t = p.replace(/\/+$/, '');
  if (t === '') return '/';
  return t.slice(t.lastIndexOf('/') + 1);
}

function dir(p: string): string {
  const i = p.lastIndexOf('/');
  return clean(p.slice(0, i + 1));
}

function ext(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

const S = { params: ['string'], results: ['string'] };
const B = { params: ['string'], results: ['bool'] };
export const pathFunctions: FuncMap = {
  base: goFunc(S, base),
  dir: goFunc(S, dir),
  clean: goFunc(S, clean),
  ext: goFunc(S, ext),
  isAbs: goFunc(B, (p: string) => p.startsWith('/')),
  osBase: goFunc(S, base),
  osDir: goFunc(S, dir),
  osClean: goFunc(S, clean),
  osExt: goFunc(S, ext),
  osIsAbs: goFunc(B, (p: string) => p.startsWith('/')),
};
