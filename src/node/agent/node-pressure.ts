// The node's pressure conditions as kubelet computes them from its eviction signals, against kubelet's
// default hard thresholds: memory.available<100Mi and nodefs.available<10%. kubelet has no default PID
// threshold; Bosun reports PIDPressure below 10% of kernel.pid_max free. Reasons and messages are kubelet's.
import type { NodeCondition } from '../../apimachinery/api/index.ts';
import type { NodeUsage } from '../stats/node-usage.ts';

export const MEMORY_AVAILABLE_THRESHOLD_BYTES = 100 * 1024 * 1024;
export const NODEFS_AVAILABLE_THRESHOLD = 0.1;
export const PID_AVAILABLE_THRESHOLD = 0.1;

type Reading = Pick<NodeUsage, 'memoryAvailableBytes' | 'fsAvailableBytes' | 'fsCapacityBytes' | 'maxPids' | 'runningPids'>;

const WORDING = {
  MemoryPressure: { true: ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'], false: ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'] },
  DiskPressure: { true: ['KubeletHasDiskPressure', 'kubelet has disk pressure'], false: ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'] },
  PIDPressure: { true: ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'], false: ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'] },
} as const;

/**
 * The three conditions for this reading. A condition whose status is unchanged keeps its lastTransitionTime
 * from previous; every one gets now as lastHeartbeatTime.
 */
export function pressureConditions(reading: Reading, previous: NodeCondition[], now: string): NodeCondition[] {
  const pressure = {
    MemoryPressure: reading.memoryAvailableBytes < MEMORY_AVAILABLE_THRESHOLD_BYTES,
    DiskPressure: reading.fsCapacityBytes > 0 && reading.fsAvailableBytes < reading.fsCapacityBytes * NODEFS_AVAILABLE_THRESHOLD,
    PIDPressure: reading.maxPids - reading.runningPids < reading.maxPids * PID_AVAILABLE_THRESHOLD,
  };
  return (Object.keys(WORDING) as (keyof typeof WORDING)[]).map((type) => {
    const status = pressure[type] ? 'True' : 'False';
    const [reason, message] = WORDING[type][pressure[type] ? 'true' : 'false'];
    const before = previous.find((c) => c.type === type);
    const lastTransitionTime = before?.status === status && before.lastTransitionTime ? before.lastTransitionTime : now;
    return { type, status, reason, message, lastHeartbeatTime: now, lastTransitionTime };
  });
}
