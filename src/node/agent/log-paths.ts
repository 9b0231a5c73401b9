// Where a container run's CRI log lives under the agent's data dir, in kubelet's layout
// (/var/log/pods/<namespace>_<pod>_<uid>/<container>/<restartCount>.log) so `kubectl logs` can find a
// run, and its previous run, from the pod and the container status alone.
import { join } from 'node:path';

export interface LogRun {
  namespace: string;
  podName: string;
  podUid: string;
  container: string;
  restartCount: number;
}

export function podLogDir(dataDir: string, run: Pick<LogRun, 'namespace' | 'podName' | 'podUid'>): string {
  return join(dataDir, 'logs', 'pods', `${run.namespace}_${run.podName}_${run.podUid}`);
}

export function containerLogPath(dataDir: string, run: LogRun): string {
  return join(podLogDir(dataDir, run), run.container, `${run.restartCount}.log`);
}
