// The Branch object name, as upstream's createBranchResource builds it: `<repository>-<sha256(ref)[:8]>-<sha[:8]>`.
// The ref hash keeps two refs at one commit apart; the SHA makes a new commit a new object.
import { createHash } from 'node:crypto';

export function branchName(repositoryName: string, ref: string, sha: string): string {
  const refHash = createHash('sha256').update(ref).digest('hex').slice(0, 8);
  return `${objectNamePart(repositoryName)}-${refHash}-${sha.slice(0, 8)}`;
}

/**
 * A GitHub repository name may hold capitals and underscores, which no Kubernetes name may: those are lowered and
 * replaced by "-" (upstream's create would be refused). A name that is already valid is kept as it is.
 */
function objectNamePart(name: string): string {
  const part = name.toLowerCase().replace(/[^a-z0-9.-]/g, '-').replace(/^[^a-z0-9]+|[^a-z0-9]+$/g, '');
  return part === '' ? 'repository' : part;
}
