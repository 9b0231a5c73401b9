// upstream's ValidateCount, shared by spec.count and cpuPressure.count (and, as upstream, naming spec.count in
// the parse error of either).
import { specError, type SpecError } from './errors.ts';
import type { IntOrString } from '../api/types.ts';
import { intOrPercent } from './values.ts';

export function countErrors(count: IntOrString | null | undefined, field: string): SpecError[] {
  const parsed = intOrPercent(count);
  if (!parsed.ok) return [specError(field, `error determining value of spec.count: ${parsed.error}`)];
  const { value, percent } = parsed.value;
  return value <= 0 || (percent && value > 100) ? [specError(field, 'count must be a positive integer or a valid percentage value')] : [];
}
