// The one status writer of the deployer library: the runtime's conflict-retrying writer, guarded so that a
// retry never writes into a job that was taken away meanwhile (the execution's interrupt or the pickup timeout
// finished it, or a newer job replaced it). The first attempt writes on our own read, which the server's
// resourceVersion precondition guards; a retry sees the server's state and stops with InterruptedError.
import type { KubeClient } from '../../../client/client.ts';
import type { StatusWriter } from '../../../runtime/index.ts';
import { statusWriter } from '../../../runtime/index.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import { InterruptedError } from './errors.ts';
import { jobTakenAway } from './interruption.ts';
import { deployItemsResource } from '../../api/resources.ts';

export function jobStatusWriter(client: KubeClient): StatusWriter<DeployItem> {
  const writer = statusWriter<DeployItem>(client, deployItemsResource);
  return {
    write(obj, mutate, options) {
      const jobID = obj.status?.jobID ?? '';
      let retry = false;
      return writer.write(obj, (draft) => {
        if (retry && jobTakenAway(draft, jobID)) {
          throw new InterruptedError(`job ${jobID} of deploy item ${obj.metadata.namespace}/${obj.metadata.name} was taken away while writing its status`);
        }
        retry = true;
        return mutate(draft);
      }, options);
    },
  };
}
