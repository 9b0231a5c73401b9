// The host's /etc/passwd stands in for the image's: with no image, a numeric user's primary group and
// home directory come from there, as runc reads them from the container's root filesystem.
import { readFile } from 'node:fs/promises';

export interface PasswdEntry {
  uid: number;
  gid: number;
  home: string;
}

function parsePasswd(text: string): PasswdEntry[] {
  return text
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length >= 7)
    .map(([, , uid, gid, , home]) => ({ uid: Number(uid), gid: Number(gid), home: home ?? '/' }));
}

export async function readPasswd(): Promise<PasswdEntry[]> {
  try {
    return parsePasswd(await readFile('/etc/passwd', 'utf8'));
  } catch {
    return [];
  }
}
