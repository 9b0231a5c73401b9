// The readiness file upstream's chaos pods are probed with (`test -f /tmp/readiness_probe`): written only once
// every injection succeeded, so a partly failed injection never makes the pod Ready.
import { writeFile } from 'node:fs/promises';

export async function writeReadinessFile(path: string): Promise<void> {
  await writeFile(path, '1', { mode: 0o400 });
}
