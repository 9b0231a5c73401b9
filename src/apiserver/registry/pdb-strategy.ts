// Validation of policy/v1 PodDisruptionBudgets, after kube-apiserver's ValidatePodDisruptionBudgetSpec: at most one
// of minAvailable and maxUnavailable, each a non-negative integer or a percentage of at most 100%, a parseable
// selector, and a supported unhealthyPodEvictionPolicy. The spec may change after creation (policy/v1).
import { type StatusCause } from '../../apimachinery/object.ts';
import { fromLabelSelectorObject, LabelSelectorError, type LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import type { ResourceType } from './resource-type.ts';
import { record } from './workload-strategies.ts';

const PERCENT = /^(\d+)%$/;
const EVICTION_POLICIES = ['IfHealthyBudget', 'AlwaysAllow'];

function intOrPercentCauses(value: unknown, field: string): StatusCause[] {
  if (value === undefined) return [];
  const invalid = (message: string): StatusCause[] => [{ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${message}` }];
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? [] : invalid('must be greater than or equal to 0');
  const percent = PERCENT.exec(String(value));
  if (!percent) return invalid("a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')");
  return Number(percent[1]) > 100 ? invalid('must not be greater than 100%') : [];
}

export const podDisruptionBudgetStrategy: Pick<ResourceType, 'validate'> = {
  validate(budget) {
    const spec = record(budget['spec']);
    const causes: StatusCause[] = [];
    if (spec['minAvailable'] !== undefined && spec['maxUnavailable'] !== undefined) {
      causes.push({ reason: 'FieldValueInvalid', field: 'spec', message: `Invalid value: ${JSON.stringify(spec)}: minAvailable and maxUnavailable cannot be both set` });
    }
    causes.push(...intOrPercentCauses(spec['minAvailable'], 'spec.minAvailable'), ...intOrPercentCauses(spec['maxUnavailable'], 'spec.maxUnavailable'));
    if (spec['selector'] !== undefined && spec['selector'] !== null) {
      try {
        fromLabelSelectorObject(spec['selector'] as LabelSelectorObject);
      } catch (error) {
        if (!(error instanceof LabelSelectorError)) throw error;
        causes.push({ reason: 'FieldValueInvalid', field: 'spec.selector', message: `Invalid value: ${JSON.stringify(spec['selector'])}: ${error.message}` });
      }
    }
    const policy = spec['unhealthyPodEvictionPolicy'];
    if (policy !== undefined && (typeof policy !== 'string' || !EVICTION_POLICIES.includes(policy))) {
      causes.push({ reason: 'FieldValueNotSupported', field: 'spec.unhealthyPodEvictionPolicy', message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "AlwaysAllow", "IfHealthyBudget"` });
    }
    return causes;
  },
};
