// The dashboard's views: every shipped family's, whichever controllers run here (they may run elsewhere).
import type { DashboardView } from '../runtime/view/dashboard-view.ts';
import { bosunFamilies } from './families.ts';

export function dashboardViews(): DashboardView[] {
  return bosunFamilies.flatMap((family) => family.views ?? []);
}
