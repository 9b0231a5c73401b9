// The image's USER as runc resolves it: "uid", "uid:gid", "name" or "name:group", names looked up in the image's
// own /etc/passwd and /etc/group (never the host's); a numeric uid without a group takes its passwd entry's gid.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SandboxSpecError } from '../../sandbox/errors.ts';

async function table(rootfs: string, file: string): Promise<string[][]> {
  const text = await readFile(join(rootfs, 'etc', file), 'utf8').catch(() => '');
  return text.split('\n').map((line) => line.split(':'));
}

const NUMERIC = /^\d+$/;

export async function resolveImageUser(rootfs: string, user: string | undefined): Promise<{ uid: number; gid: number }> {
  if (user === undefined || user === '') return { uid: 0, gid: 0 };
  const [userPart = '', groupPart] = user.split(':');
  const passwd = await table(rootfs, 'passwd');
  const entry = passwd.find((fields) => (NUMERIC.test(userPart) ? fields[2] === userPart : fields[0] === userPart));
  if (!NUMERIC.test(userPart) && entry === undefined) throw new SandboxSpecError('CreateContainerError', `unable to find user ${userPart}: no matching entries in passwd file`);
  const uid = NUMERIC.test(userPart) ? Number(userPart) : Number(entry?.[2]);
  if (groupPart === undefined) return { uid, gid: entry ? Number(entry[3]) : 0 };
  if (NUMERIC.test(groupPart)) return { uid, gid: Number(groupPart) };
  const group = (await table(rootfs, 'group')).find((fields) => fields[0] === groupPart);
  if (group === undefined) throw new SandboxSpecError('CreateContainerError', `unable to find group ${groupPart}: no matching entries in group file`);
  return { uid, gid: Number(group[2]) };
}
