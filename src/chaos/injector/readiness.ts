// The readiness file upstream's chaos pods are probed with (`test -f /tmp/readiness_probe`): written only once
// every injection succeeded, so a partly failed injection never makes the pod Ready. It appears whole: written
// beside its place and renamed there, so nothing that sees it exists reads it empty.
import { rename, writeFile } from 'node:fs/promises';

export async function writeReadinessFile(path: string): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, '1', { mode: 0o400 });
  await rename(partial, path);
}
