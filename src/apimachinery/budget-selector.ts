// Which pods a PodDisruptionBudget selects, one rule for the eviction subresource and the disruption controller:
// a nil selector selects none, an empty one every pod of the namespace (policy/v1), an unparseable one none.
import type { PodDisruptionBudget } from './api/index.ts';
import { fromLabelSelectorObject, LabelSelectorError, matchesLabels } from './label-selector.ts';

export function budgetSelects(budget: PodDisruptionBudget, labels: Record<string, string> | undefined): boolean {
  const selector = budget.spec?.selector;
  if (!selector) return false;
  try {
    return matchesLabels(fromLabelSelectorObject(selector), labels);
  } catch (err) {
    if (err instanceof LabelSelectorError) return false;
    throw err;
  }
}
