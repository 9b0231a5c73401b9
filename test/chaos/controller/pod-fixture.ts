// Pods as the controller's unit tests write them: only the fields a case is about, the rest of what
// core/v1 requires (a spec's containers, a container status's image) left out.
import type { Pod } from '../../../src/apimachinery/api/index.ts';

type Fixture<T> = { [K in keyof T]?: T[K] extends Array<infer U> | undefined ? Array<Fixture<U>> : T[K] extends object | undefined ? Fixture<T[K]> : T[K] };

export function podFixture(pod: Fixture<Pod> & { metadata: Pod['metadata'] }): Pod {
  return pod as Pod;
}

export type PodStatusFixture = Fixture<NonNullable<Pod['status']>>;
