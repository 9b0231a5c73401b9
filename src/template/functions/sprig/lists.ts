// sprig list.go: list operations. The plain forms panic where the must* forms return an error;
// either way the template reports "error calling NAME: message".
import { GoFuncError, goFunc, goSlice, int, type FuncMap, type GoValue } from '../../value.ts';
import { castInt64, deepEqual, listItems, listKind } from './util.ts';

const ANY = 'interface {}';
const LIST = '[]interface {}';

function asList(v: GoValue, what: string): GoValue[] {
  const k = listKind(v);
  if (k !== 'slice' && k !== 'array') throw new GoFuncError(`${what} ${k}`);
  return listItems(v);
}

const push = (l: GoValue, v: GoValue): GoValue[] => [...asList(l, 'Cannot push on type'), v];
const prepend = (l: GoValue, v: GoValue): GoValue[] => [v, ...asList(l, 'Cannot prepend on type')];
const first = (l: GoValue): GoValue => {
  const a = asList(l, 'Cannot find first on type');
  return a.length === 0 ? null : a[0];
};
const last = (l: GoValue): GoValue => {
  const a = asList(l, 'Cannot find last on type');
  return a.length === 0 ? null : a[a.length - 1];
};
// An empty input yields a nil []interface{}, which prints as [] like an empty one.
const rest = (l: GoValue): GoValue[] => asList(l, 'Cannot find rest on type').slice(1);
const initial = (l: GoValue): GoValue[] => asList(l, 'Cannot find initial on type').slice(0, -1);
const reverse = (l: GoValue): GoValue[] => asList(l, 'Cannot find reverse on type').slice().reverse();
const uniq = (l: GoValue): GoValue[] => {
  const out: GoValue[] = [];
  for (const x of asList(l, 'Cannot find uniq on type')) if (!out.some((y) => deepEqual(x, y))) out.push(x);
  return out;
};
const without = (l: GoValue, ...omit: GoValue[]): GoValue[] =>
  asList(l, 'Cannot find without on type').filter((x) => !omit.some((o) => deepEqual(x, o)));
const has = (needle: GoValue, hay: GoValue): boolean => {
  if (hay === null || hay === undefined) return false;
  return asList(hay, 'Cannot find has on type').some((x) => deepEqual(needle, x));
};
const slice = (l: GoValue, ...idx: GoValue[]): GoValue => {
  const a = asList(l, 'list should be type of slice or array but');
  if (a.length === 0) return null;
  const start = idx.length > 0 ? Number(castInt64(idx[0])) : 0;
  const end = idx.length < 2 ? a.length : Number(castInt64(idx[1]));
  if (start < 0 || end < start || end > a.length) throw new GoFuncError('reflect.Value.Slice: slice index out of bounds');
  return a.slice(start, end);
};
const chunk = (sizeV: GoValue, l: GoValue): GoValue[] => {
  const a = asList(l, 'Cannot chunk type');
  const size = Number(castInt64(sizeV));
  const cs = Math.floor((a.length - 1) / size) + 1;
  if (!Number.isFinite(cs) || cs < 0) throw new GoFuncError('runtime error: makeslice: len out of range');
  const out: GoValue[] = [];
  for (let i = 0; i < cs; i++) out.push(a.slice(i * size, i * size + size));
  return out;
};

function untilStep(start: number, stop: number, step: number): GoValue[] {
  const v: GoValue[] = [];
  if (stop < start) {
    if (step >= 0) return v;
    for (let i = start; i > stop; i += step) v.push(int(i));
    return v;
  }
  if (step <= 0) return v;
  for (let i = start; i < stop; i += step) v.push(int(i));
  return v;
}

export const untilSteps = untilStep;

export const listFunctions: FuncMap = {
  list: goFunc({ params: [], variadic: ANY, results: [LIST] }, (...v: GoValue[]) => v),
  tuple: goFunc({ params: [], variadic: ANY, results: [LIST] }, (...v: GoValue[]) => v),
  append: goFunc({ params: [ANY, ANY], results: [LIST] }, push),
  push: goFunc({ params: [ANY, ANY], results: [LIST] }, push),
  mustAppend: goFunc({ params: [ANY, ANY], results: [LIST, 'error'] }, push),
  mustPush: goFunc({ params: [ANY, ANY], results: [LIST, 'error'] }, push),
  prepend: goFunc({ params: [ANY, ANY], results: [LIST] }, prepend),
  mustPrepend: goFunc({ params: [ANY, ANY], results: [LIST, 'error'] }, prepend),
  first: goFunc({ params: [ANY], results: [ANY] }, first),
  mustFirst: goFunc({ params: [ANY], results: [ANY, 'error'] }, first),
  rest: goFunc({ params: [ANY], results: [LIST] }, rest),
  mustRest: goFunc({ params: [ANY], results: [LIST, 'error'] }, rest),
  last: goFunc({ params: [ANY], results: [ANY] }, last),
  mustLast: goFunc({ params: [ANY], results: [ANY, 'error'] }, last),
  initial: goFunc({ params: [ANY], results: [LIST] }, initial),
  mustInitial: goFunc({ params: [ANY], results: [LIST, 'error'] }, initial),
  reverse: goFunc({ params: [ANY], results: [LIST] }, reverse),
  mustReverse: goFunc({ params: [ANY], results: [LIST, 'error'] }, reverse),
  uniq: goFunc({ params: [ANY], results: [LIST] }, uniq),
  mustUniq: goFunc({ params: [ANY], results: [LIST, 'error'] }, uniq),
  without: goFunc({ params: [ANY], variadic: ANY, results: [LIST] }, without),
  mustWithout: goFunc({ params: [ANY], variadic: ANY, results: [LIST, 'error'] }, without),
  has: goFunc({ params: [ANY, ANY], results: ['bool'] }, has),
  mustHas: goFunc({ params: [ANY, ANY], results: ['bool', 'error'] }, has),
  slice: goFunc({ params: [ANY], variadic: ANY, results: [ANY] }, slice),
  mustSlice: goFunc({ params: [ANY], variadic: ANY, results: [ANY, 'error'] }, slice),
  concat: goFunc({ params: [], variadic: ANY, results: [ANY] }, (...lists: GoValue[]) => {
    const out: GoValue[] = [];
    for (const l of lists) {
      const k = listKind(l);
      if (k !== 'slice' && k !== 'array') throw new GoFuncError(`Cannot concat type ${k} as list`);
      out.push(...listItems(l));
    }
    return out;
  }),
  chunk: goFunc({ params: ['int', ANY], results: ['[][]interface {}'] }, chunk),
  mustChunk: goFunc({ params: ['int', ANY], results: ['[][]interface {}', 'error'] }, chunk),
  until: goFunc({ params: ['int'], results: ['[]int'] }, (c: GoValue) => {
    const n = Number(castInt64(c));
    return tagInts(untilStep(0, n, n < 0 ? -1 : 1));
  }),
  untilStep: goFunc({ params: ['int', 'int', 'int'], results: ['[]int'] }, (a: GoValue, b: GoValue, s: GoValue) =>
    tagInts(untilStep(Number(castInt64(a)), Number(castInt64(b)), Number(castInt64(s))))),
};

function tagInts(v: GoValue[]): GoValue[] {
  return goSlice('int', v);
}
