// The two resources the sandbox enforces, as non-negative numbers; a bad quantity is the container's
// CreateContainerConfigError.
import { integerValue, milliValue, parseQuantity, QUANTITY_SYNTAX_MESSAGE, QuantityError } from '../../apimachinery/quantity.ts';
import { SandboxSpecError } from './errors.ts';

function checked(field: string, text: string, convert: (text: string) => number): number {
  try {
    if (parseQuantity(text) < 0) throw new SandboxSpecError('CreateContainerConfigError', `${field}: Invalid value: "${text}": must be greater than or equal to 0`);
    return convert(text);
  } catch (error) {
    if (!(error instanceof QuantityError)) throw error;
    throw new SandboxSpecError('CreateContainerConfigError', `${field}: Invalid value: "${text}": ${QUANTITY_SYNTAX_MESSAGE}`);
  }
}

/** CPU in millicores, rounded up. */
export function parseMilliCpu(field: string, text: string): number {
  return checked(field, text, milliValue);
}

/** Memory in bytes, rounded up. */
export function parseBytes(field: string, text: string): number {
  return checked(field, text, integerValue);
}
