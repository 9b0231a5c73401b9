// resource.Quantity strings ("100m", "1.5", "128Mi", "1G", "2e3") as numbers: CPU in millicores, the rest in base units.

const suffixes: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const pattern = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

export class QuantityError extends Error {
  override readonly name = 'QuantityError' as const;
}

/** The quantity's value in base units (cores for CPU, bytes for memory). */
export function parseQuantity(text: string): number {
  const match = pattern.exec(text.trim());
  if (!match) throw new QuantityError(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$': ${JSON.stringify(text)}`);
  const base = Number(match[1]);
  if (match[2] !== undefined) return base * 10 ** Number(match[2]);
  return base * (suffixes[match[3] ?? ''] ?? 1);
}

/** CPU in whole millicores, rounded up as Quantity.MilliValue does. */
export function milliCpu(text: string): number {
  return Math.ceil(Math.round(parseQuantity(text) * 1e9) / 1e6);
}

/** A byte count (or any integer resource), rounded up as Quantity.Value does. */
export function integerValue(text: string): number {
  return Math.ceil(parseQuantity(text));
}
