// The slice of shopspring/decimal that sprig's addf/subf/mulf/divf use: exact decimal arithmetic on
// the shortest decimal form of each float64, converted back with Float64().
import { GoFuncError } from '../../value.ts';

interface Dec {
  c: bigint; // coefficient
  e: number; // value = c * 10^e
}

function fromFloat(f: number): Dec {
  if (!Number.isFinite(f)) throw new GoFuncError(`Cannot create a Decimal from ${f}`);
  if (f === 0) return { c: 0n, e: 0 };
  const [mant, exp] = f.toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '').replace('-', '');
  const frac = mant.includes('.') ? mant.split('.')[1]!.length : 0;
  return { c: BigInt((f < 0 ? '-' : '') + digits), e: Number(exp) - frac };
}

function align(a: Dec, b: Dec): [bigint, bigint, number] {
  const e = Math.min(a.e, b.e);
  return [a.c * 10n ** BigInt(a.e - e), b.c * 10n ** BigInt(b.e - e), e];
}

function toFloat(d: Dec): number {
  return Number(`${d.c}e${d.e}`);
}

export type DecOp = (a: Dec, b: Dec) => Dec;

export const add: DecOp = (a, b) => {
  const [x, y, e] = align(a, b);
  return { c: x + y, e };
};
export const sub: DecOp = (a, b) => {
  const [x, y, e] = align(a, b);
  return { c: x - y, e };
};
export const mul: DecOp = (a, b) => ({ c: a.c * b.c, e: a.e + b.e });
/** Div rounds to 16 decimal places, half away from zero (decimal.DivisionPrecision). */
export const div: DecOp = (a, b) => {
  if (b.c === 0n) throw new GoFuncError('decimal division by 0');
  const prec = 16;
  // a/b * 10^prec, computed with one extra digit for rounding.
  const shift = a.e - b.e + prec + 1;
  let num = a.c;
  let den = b.c;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  let q = num / den;
  const neg = q < 0n;
  if (neg) q = -q;
  q = q % 10n >= 5n ? q / 10n + 1n : q / 10n;
  return { c: neg ? -q : q, e: -prec };
};

export function decimalOp(first: number, rest: number[], op: DecOp): number {
  let acc = fromFloat(first);
  for (const x of rest) acc = op(acc, fromFloat(x));
  return toFloat(acc);
}
