// A child Job as the CronJob controller sees it: finished when its Complete or Failed condition is True.
import type { Job } from '../../apimachinery/api/index.ts';

export function finishedConditionOf(job: Job): 'Complete' | 'Failed' | undefined {
  const finished = job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  return finished?.type as 'Complete' | 'Failed' | undefined;
}
