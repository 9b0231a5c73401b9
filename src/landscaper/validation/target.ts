// Target validation (upstream's ValidateTarget, plus the type that the CRD requires and deployers select on).
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import { path } from '../../apimachinery/field-path.ts';
import type { Target } from '../api/target.ts';
import { validateLocalReference } from './references.ts';

export function validateTarget(target: Target): FieldError[] {
  const spec = path('spec');
  const errors: FieldError[] = [];
  if (!target.spec?.type) errors.push(fieldError.required(spec.child('type'), 'type must not be empty'));
  const hasConfig = target.spec?.config !== undefined && target.spec.config !== null;
  const secretRef = target.spec?.secretRef;
  if (hasConfig && secretRef !== undefined && secretRef !== null) {
    errors.push(fieldError.invalidWithoutValue(spec, 'either config or secretRef may be set, not both'));
  }
  if (secretRef !== undefined && secretRef !== null) errors.push(...validateLocalReference(secretRef, spec.child('secretRef')));
  return errors;
}
