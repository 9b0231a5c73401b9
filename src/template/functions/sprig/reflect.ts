// sprig reflect.go plus deepEqual.
import { goFunc, goTypeName, type FuncMap, type GoValue } from '../../value.ts';
import { deepEqual, kindOf } from './util.ts';

const ANY = 'interface {}';
export const reflectFunctions: FuncMap = {
  typeOf: goFunc({ params: [ANY], results: ['string'] }, (v: GoValue) => goTypeName(v)),
  typeIs: goFunc({ params: ['string', ANY], results: ['bool'] }, (t: string, v: GoValue) => t === goTypeName(v)),
  typeIsLike: goFunc({ params: ['string', ANY], results: ['bool'] }, (t: string, v: GoValue) => {
    const s = goTypeName(v);
    return t === s || '*' + t === s;
  }),
  kindOf: goFunc({ params: [ANY], results: ['string'] }, kindOf),
  kindIs: goFunc({ params: ['string', ANY], results: ['bool'] }, (k: string, v: GoValue) => k === kindOf(v)),
  deepEqual: goFunc({ params: [ANY, ANY], results: ['bool'] }, deepEqual),
};
