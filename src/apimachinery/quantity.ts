// resource.Quantity strings ("100m", "1.5", "128Mi", "1G", "2e3") as numbers in base units (cores for CPU,
// bytes for memory). Kubernetes rounds up when it converts (MilliValue, Value), so 0.1m CPU is 1m.

const SUFFIX_FACTORS: Record<string, number> = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/** kube-apiserver's words for a string that is no quantity. */
export const QUANTITY_SYNTAX_MESSAGE = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

export class QuantityError extends Error {
  override readonly name = 'QuantityError' as const;
}

/** The quantity's value in base units; throws QuantityError for a malformed string. */
export function parseQuantity(text: string): number {
  const match = QUANTITY.exec(text.trim());
  if (!match) throw new QuantityError(`${QUANTITY_SYNTAX_MESSAGE}: ${JSON.stringify(text)}`);
  const [, sign = '', digits = '0', exponent, suffix = ''] = match;
  const magnitude = Number(digits) * (exponent !== undefined ? 10 ** Number(exponent) : (SUFFIX_FACTORS[suffix] ?? 1));
  return sign === '-' ? -magnitude : magnitude;
}

/** Thousandths of the value, rounded up as Quantity.MilliValue does (CPU in millicores). */
export function milliValue(text: string): number {
  return Math.ceil(Math.round(parseQuantity(text) * 1e9) / 1e6);
}

/** The value as an integer, rounded up as Quantity.Value does (bytes, pods). */
export function integerValue(text: string): number {
  return Math.ceil(parseQuantity(text) - 1e-9);
}
