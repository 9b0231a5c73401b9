// Workflow status writes, all through the runtime's status writer (re-read and re-apply on a conflict). The
// JobStatus condition carries observedGeneration; its lastTransitionTime moves only when its status does.
import type { StatusWriter } from '../../runtime/index.ts';
import { setObjectCondition } from '../../runtime/index.ts';
import type { WorkflowPhase } from '../api/constants.ts';
import type { Workflow } from '../api/types.ts';
import { CONDITION_JOB_STATUS } from './events.ts';

type Status = NonNullable<Workflow['status']>;

/** The phase a Job gave, as upstream writes it: JobStatus True, reason = phase, "Job is in <phase> state". */
export function writeJobPhase(writer: StatusWriter<Workflow>, workflow: Workflow, phase: WorkflowPhase): Promise<Workflow> {
  return writer.write(workflow, (draft) => {
    status(draft).phase = phase;
    setObjectCondition(draft, { type: CONDITION_JOB_STATUS, status: 'True', reason: phase, message: `Job is in ${phase} state` });
  });
}

/** Failed without a Job (no template, a Job the API server refused): JobStatus False with the reason. */
export function writeFailedWithoutJob(writer: StatusWriter<Workflow>, workflow: Workflow, reason: string, message: string): Promise<Workflow> {
  return writer.write(workflow, (draft) => {
    status(draft).phase = 'Failed';
    setObjectCondition(draft, { type: CONDITION_JOB_STATUS, status: 'False', reason, message });
  });
}

/** A condition only (the phase stays): something the controller retries is wrong, e.g. a foreign Job. */
export function writeJobCondition(writer: StatusWriter<Workflow>, workflow: Workflow, reason: string, message: string): Promise<Workflow> {
  return writer.write(workflow, (draft) => {
    setObjectCondition(draft, { type: CONDITION_JOB_STATUS, status: 'False', reason, message });
  });
}

/** The check run's identity, the authoritative link for every later update. */
export function writeCheckRun(writer: StatusWriter<Workflow>, workflow: Workflow, id: number, name: string): Promise<Workflow> {
  return writer.write(workflow, (draft) => {
    const s = status(draft);
    s.checkRunID = id;
    s.checkRunName = name;
  });
}

/** Repairs an empty check run name; a name someone wrote meanwhile stands. */
export function writeCheckRunName(writer: StatusWriter<Workflow>, workflow: Workflow, name: string): Promise<Workflow> {
  return writer.write(workflow, (draft) => {
    const s = status(draft);
    if (!s.checkRunName) s.checkRunName = name;
  });
}

function status(workflow: Workflow): Status {
  return (workflow.status ??= {});
}
