// Defaulting and validation of v1 ResourceQuotas, after kube-apiserver's resourcequota strategy and
// ValidateResourceQuota: a new quota starts without status (the server counts it), and each hard limit is a
// valid, non-negative quantity.
import { QuantityError, parseQuantity } from '../../apimachinery/quantity.ts';
import type { StatusCause } from '../../apimachinery/object.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { record } from '../registry/workload-strategies.ts';

export const resourceQuotaStrategy: Pick<ResourceType, 'prepareForCreate' | 'validate'> = {
  prepareForCreate(quota) {
    delete quota['status'];
  },
  validate(quota) {
    const causes: StatusCause[] = [];
    for (const [resource, value] of Object.entries(record(record(quota['spec'])['hard']))) {
      const field = `spec.hard[${resource}]`;
      try {
        if (parseQuantity(String(value)) < 0) causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(String(value))}: must be greater than or equal to 0` });
      } catch (err) {
        if (!(err instanceof QuantityError)) throw err;
        causes.push({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(String(value))}: ${err.message.split(': ')[0] ?? ''}` });
      }
    }
    return causes;
  },
};
