// DeployItem validation (upstream's ValidateDeployItem and the webhook's immutable type).
import { fieldError, type FieldError } from '../../apimachinery/field-error.ts';
import { path } from '../../apimachinery/field-path.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import { validateObjectReference } from './references.ts';

export function validateDeployItem(item: DeployItem): FieldError[] {
  const spec = path('spec');
  const errors: FieldError[] = [];
  if (!item.spec?.type) errors.push(fieldError.required(spec.child('type'), 'type must not be empty'));
  if (item.spec?.target !== undefined && item.spec.target !== null) errors.push(...validateObjectReference(item.spec.target, spec.child('target')));
  return errors;
}

/** An update: the new object is valid, and its type is the old one's (a deployer owns an item for good). */
export function validateDeployItemUpdate(item: DeployItem, old: DeployItem): FieldError[] {
  const errors = validateDeployItem(item);
  const type = item.spec?.type ?? '';
  if (type !== (old.spec?.type ?? '')) errors.push(fieldError.invalid(path('spec').child('type'), type, 'field is immutable'));
  return errors;
}
