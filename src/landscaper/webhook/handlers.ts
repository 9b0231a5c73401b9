// The admission handlers of the validating webhook (upstream's pkg/utils/webhook): decode the object, run
// the kind's validation, deny with the field errors. What they let through on purpose:
// - writes to a subresource (status): the rules do not match them, this is a second line of defence so
//   that controllers' status writes are never blocked;
// - objects labelled validation.landscaper.gardener.cloud/skip-validation=true (upstream's objectSelector,
//   also checked here for API servers that ignore objectSelector);
// - updates of an object that is being deleted: its finalizer must be removable even when it was written
//   invalid while the webhook was not running.
import { formatFieldErrors, toStatusCauses, type FieldError } from '../../apimachinery/field-error.ts';
import type { KubeObject } from '../../apimachinery/object.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import type { Target } from '../api/target.ts';
import type { AdmissionHandler, AdmissionRequest } from '../../runtime/index.ts';
import { allowed, denied } from '../../runtime/index.ts';
import { validateDeployItem, validateDeployItemUpdate } from '../validation/deploy-item.ts';
import { validateExecution } from '../validation/execution.ts';
import { validateInstallation } from '../validation/installation.ts';
import { validateTarget } from '../validation/target.ts';

export const SKIP_VALIDATION_LABEL = 'validation.landscaper.gardener.cloud/skip-validation';

function exempt(req: AdmissionRequest): string | undefined {
  if (req.subResource) return `subresource ${req.subResource} is not validated`;
  if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return `${req.operation} is not validated`;
  if (req.object?.metadata.labels?.[SKIP_VALIDATION_LABEL] === 'true') return 'validation skipped by label';
  if (req.operation === 'UPDATE' && req.object?.metadata.deletionTimestamp) return 'the object is being deleted';
  return undefined;
}

/** A handler for one kind: `validate` sees the new object and, on UPDATE, the old one. */
function validating<T extends KubeObject>(kind: string, validate: (obj: T, old: T | undefined) => FieldError[]): AdmissionHandler {
  return (req) => {
    const skip = exempt(req);
    if (skip !== undefined) return allowed(skip);
    // A validating webhook without an object has nothing to judge; the API server always sends one for CREATE/UPDATE.
    if (!req.object) return denied(`no object in the ${req.operation} request for ${kind}`, 400);
    const errors = validate(req.object as T, req.oldObject as T | undefined);
    return errors.length === 0 ? allowed(`${kind} is valid`) : denied(formatFieldErrors(errors), 403, toStatusCauses(errors));
  };
}

export const validateInstallationHandler = validating<Installation>('Installation', (obj) => validateInstallation(obj));
export const validateExecutionHandler = validating<Execution>('Execution', (obj) => validateExecution(obj));
export const validateDeployItemHandler = validating<DeployItem>('DeployItem', (obj, old) => (old ? validateDeployItemUpdate(obj, old) : validateDeployItem(obj)));
export const validateTargetHandler = validating<Target>('Target', (obj) => validateTarget(obj));
