// What a pod asks of a node and what a node offers (the scheduler's NodeInfo in small): CPU in millicores,
// memory in bytes, and a pod slot.
import type { Node, Pod, ResourceList } from '../../apimachinery/api/index.ts';
import { integerValue, milliValue, QuantityError } from '../../apimachinery/quantity.ts';

export interface Resources {
  milliCpu: number;
  memory: number;
}

const zero = (): Resources => ({ milliCpu: 0, memory: 0 });

function fromQuantities(q: ResourceList | undefined): Resources {
  return { milliCpu: q?.['cpu'] ? milliValue(q['cpu']) : 0, memory: q?.['memory'] ? integerValue(q['memory']) : 0 };
}

// schedutil.DefaultMilliCPURequest and DefaultMemoryRequest: what scoring assumes of a container that requests nothing.
const defaultMilliCpu = 100;
const defaultMemory = 200 * 1024 * 1024;

/**
 * resourcehelper.PodRequests: the sum of the containers' requests, at least the largest init container's, plus
 * the pod overhead. With nonZero, a container without a CPU or memory request counts the scheduler's defaults
 * (used for scoring, so that pods without requests still spread).
 */
export function podRequests(pod: Pod, nonZero = false): Resources {
  const sum = zero();
  for (const c of pod.spec?.containers ?? []) {
    const r = fromQuantities(c.resources?.requests);
    sum.milliCpu += nonZero && !c.resources?.requests?.['cpu'] ? defaultMilliCpu : r.milliCpu;
    sum.memory += nonZero && !c.resources?.requests?.['memory'] ? defaultMemory : r.memory;
  }
  for (const c of pod.spec?.initContainers ?? []) {
    const r = fromQuantities(c.resources?.requests);
    sum.milliCpu = Math.max(sum.milliCpu, r.milliCpu);
    sum.memory = Math.max(sum.memory, r.memory);
  }
  const overhead = fromQuantities(pod.spec?.overhead);
  return { milliCpu: sum.milliCpu + overhead.milliCpu, memory: sum.memory + overhead.memory };
}

export interface NodeCapacity extends Resources {
  pods: number;
}

/** status.allocatable, falling back to capacity as the kubelet reports both; a node reporting nonsense offers nothing. */
export function allocatable(node: Node): NodeCapacity {
  const q = node.status?.allocatable ?? node.status?.capacity;
  try {
    return { ...fromQuantities(q), pods: q?.['pods'] ? integerValue(q['pods']) : 0 };
  } catch (err) {
    if (err instanceof QuantityError) return { milliCpu: 0, memory: 0, pods: 0 };
    throw err;
  }
}

export function add(a: Resources, b: Resources): Resources {
  return { milliCpu: a.milliCpu + b.milliCpu, memory: a.memory + b.memory };
}
