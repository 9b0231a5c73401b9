// sprig numeric.go: integer math on int64 (via cast), float math via decimal, conversions, seq.
import { GoFuncError, GoInt, goFunc, int, int64, type FuncMap, type GoValue } from '../../value.ts';
import { add, decimalOp, div, mul, sub } from './decimal.ts';
import { untilSteps } from './lists.ts';
import { castFloat64, castInt64, i64, strval } from './util.ts';

const ANY = 'interface {}';

function divI(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new GoFuncError('runtime error: integer divide by zero');
  return a / b;
}

function modI(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new GoFuncError('runtime error: integer divide by zero');
  return a % b;
}

function round(a: GoValue, p: GoValue, ...opt: number[]): number {
  const roundOn = opt.length > 0 ? opt[0]! : 0.5;
  const val = castFloat64(a);
  const pow = Math.pow(10, castFloat64(p));
  const digit = pow * val;
  const frac = digit - Math.trunc(digit);
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

/** strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on error. */
function toDecimal(v: GoValue): GoValue {
  const s = strval(v);
  if (!/^[+-]?[0-7]+$/.test(s)) return int64(0);
  const n = BigInt('0o' + s.replace(/^[+-]/, '')) * (s.startsWith('-') ? -1n : 1n);
  if (n > 9223372036854775807n || n < -9223372036854775808n) return int64(0);
  return int64(n);
}

function seq(...ps: GoValue[]): string {
  const p = ps.map((x) => Number((x as GoInt).value));
  const join = (v: GoValue[]): string => v.map(String).join(' ');
  switch (p.length) {
    case 1: {
      const end = p[0]!;
      const inc = end < 1 ? -1 : 1;
      return join(untilSteps(1, end + inc, inc));
    }
    case 2: {
      const [start, end] = p as [number, number];
      const step = end < start ? -1 : 1;
      return join(untilSteps(start, end + step, step));
    }
    case 3: {
      const [start, step, end] = p as [number, number, number];
      let inc = 1;
      if (end < start) {
        inc = -1;
        if (step > 0) return '';
      } else if (step < 0) return '';
      return join(untilSteps(start, end + inc, step));
    }
    default:
      return '';
  }
}

const f64 = (v: GoValue): number => castFloat64(v);

export const mathFunctions: FuncMap = {
  int64: goFunc({ params: [ANY], results: ['int64'] }, i64),
  int: goFunc({ params: [ANY], results: ['int'] }, (v: GoValue) => int(castInt64(v))),
  float64: goFunc({ params: [ANY], results: ['float64'] }, f64),
  toDecimal: goFunc({ params: [ANY], results: ['int64'] }, toDecimal),
  seq: goFunc({ params: [], variadic: 'int', results: ['string'] }, seq),
  add1: goFunc({ params: [ANY], results: ['int64'] }, (v: GoValue) => int64(castInt64(v) + 1n)),
  add: goFunc({ params: [], variadic: ANY, results: ['int64'] }, (...v: GoValue[]) => int64(v.reduce<bigint>((a, b) => a + castInt64(b), 0n))),
  sub: goFunc({ params: [ANY, ANY], results: ['int64'] }, (a: GoValue, b: GoValue) => int64(castInt64(a) - castInt64(b))),
  div: goFunc({ params: [ANY, ANY], results: ['int64'] }, (a: GoValue, b: GoValue) => int64(divI(castInt64(a), castInt64(b)))),
  mod: goFunc({ params: [ANY, ANY], results: ['int64'] }, (a: GoValue, b: GoValue) => int64(modI(castInt64(a), castInt64(b)))),
  mul: goFunc({ params: [ANY], variadic: ANY, results: ['int64'] }, (a: GoValue, ...v: GoValue[]) =>
    int64(v.reduce<bigint>((acc, b) => BigInt.asIntN(64, acc * castInt64(b)), castInt64(a)))),
  randInt: goFunc({ params: ['int', 'int'], results: ['int'] }, (lo: GoValue, hi: GoValue) => {
    const min = Number((lo as GoInt).value);
    const max = Number((hi as GoInt).value);
    if (max - min <= 0) throw new GoFuncError('invalid argument to Intn');
    return int(Math.floor(Math.random() * (max - min)) + min);
  }),
  add1f: goFunc({ params: [ANY], results: ['float64'] }, (v: GoValue) => decimalOp(f64(v), [1], add)),
  addf: goFunc({ params: [], variadic: ANY, results: ['float64'] }, (...v: GoValue[]) => decimalOp(0, v.map(f64), add)),
  subf: goFunc({ params: [ANY], variadic: ANY, results: ['float64'] }, (a: GoValue, ...v: GoValue[]) => decimalOp(f64(a), v.map(f64), sub)),
  divf: goFunc({ params: [ANY], variadic: ANY, results: ['float64'] }, (a: GoValue, ...v: GoValue[]) => decimalOp(f64(a), v.map(f64), div)),
  mulf: goFunc({ params: [ANY], variadic: ANY, results: ['float64'] }, (a: GoValue, ...v: GoValue[]) => decimalOp(f64(a), v.map(f64), mul)),
  biggest: goFunc({ params: [ANY], variadic: ANY, results: ['int64'] }, (a: GoValue, ...v: GoValue[]) =>
    int64(v.reduce<bigint>((m, b) => (castInt64(b) > m ? castInt64(b) : m), castInt64(a)))),
  max: goFunc({ params: [ANY], variadic: ANY, results: ['int64'] }, (a: GoValue, ...v: GoValue[]) =>
    int64(v.reduce<bigint>((m, b) => (castInt64(b) > m ? castInt64(b) : m), castInt64(a)))),
  min: goFunc({ params: [ANY], variadic: ANY, results: ['int64'] }, (a: GoValue, ...v: GoValue[]) =>
    int64(v.reduce<bigint>((m, b) => (castInt64(b) < m ? castInt64(b) : m), castInt64(a)))),
  maxf: goFunc({ params: [ANY], variadic: ANY, results: ['float64'] }, (a: GoValue, ...v: GoValue[]) => v.reduce<number>((m, b) => Math.max(m, f64(b)), f64(a))),
  minf: goFunc({ params: [ANY], variadic: ANY, results: ['float64'] }, (a: GoValue, ...v: GoValue[]) => v.reduce<number>((m, b) => Math.min(m, f64(b)), f64(a))),
  ceil: goFunc({ params: [ANY], results: ['float64'] }, (v: GoValue) => Math.ceil(f64(v))),
  floor: goFunc({ params: [ANY], results: ['float64'] }, (v: GoValue) => Math.floor(f64(v))),
  round: goFunc({ params: [ANY, 'int'], variadic: 'float64', results: ['float64'] }, round),
};
