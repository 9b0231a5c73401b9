// resource.Quantity parsing for the two resources the sandbox enforces. Kubernetes rounds up when it
// converts (MilliValue, Value), so 0.1m CPU is 1m and 1.5 bytes is 2.
import { SandboxSpecError } from './errors.ts';

const SUFFIX_FACTORS: Record<string, number> = {
  n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:[eE]([+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

function parseQuantity(field: string, text: string): number {
  const match = QUANTITY.exec(text.trim());
  if (!match) throw new SandboxSpecError('CreateContainerConfigError', `${field}: Invalid value: "${text}": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`);
  const [, sign = '', digits = '0', exponent, suffix = ''] = match;
  const magnitude = Number(digits) * (exponent !== undefined ? 10 ** Number(exponent) : (SUFFIX_FACTORS[suffix] ?? 1));
  const value = sign === '-' ? -magnitude : magnitude;
  if (value < 0) throw new SandboxSpecError('CreateContainerConfigError', `${field}: Invalid value: "${text}": must be greater than or equal to 0`);
  return value;
}

/** CPU in millicores, rounded up. */
export function parseMilliCpu(field: string, text: string): number {
  return Math.ceil(parseQuantity(field, text) * 1000 - 1e-9);
}

/** Memory in bytes, rounded up. */
export function parseBytes(field: string, text: string): number {
  return Math.ceil(parseQuantity(field, text) - 1e-9);
}
