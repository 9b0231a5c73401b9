// Which non-default refs get a Branch (upstream's TestFetchBranchHeadsFromGitHub and the PR rules).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { desiredRefs } from '../../../src/terrakojo/repository/refs.ts';

const sha = (c: string): string => c.repeat(40);

describe('desired non-default refs', () => {
  it('every branch but the default one, sorted by ref', () => {
    const refs = desiredRefs([{ name: 'main', sha: sha('a') }, { name: 'zeta', sha: sha('b') }, { name: 'alpha', sha: sha('c') }], [], 'main');
    assert.deepEqual(refs, [{ ref: 'alpha', sha: sha('c') }, { ref: 'zeta', sha: sha('b') }]);
  });

  it('an open PR\'s head SHA wins over the branch\'s, and gives the PR number', () => {
    const refs = desiredRefs([{ name: 'feature/x', sha: sha('a') }], [{ number: 3, ref: 'feature/x', sha: sha('b') }], 'main');
    assert.deepEqual(refs, [{ ref: 'feature/x', sha: sha('b'), prNumber: 3 }]);
  });

  it('the highest PR number wins for a shared head ref', () => {
    const pulls = [
      { number: 9, ref: 'feature/x', sha: sha('c') },
      { number: 12, ref: 'feature/x', sha: sha('d') },
      { number: 4, ref: 'feature/x', sha: sha('e') },
    ];
    assert.deepEqual(desiredRefs([], pulls, 'main'), [{ ref: 'feature/x', sha: sha('d'), prNumber: 12 }]);
  });

  it('a PR without a head SHA falls back to the branch SHA; a ref with no SHA at all is skipped', () => {
    const refs = desiredRefs([{ name: 'a', sha: sha('a') }], [{ number: 1, ref: 'a', sha: '' }, { number: 2, ref: 'fork-only', sha: '' }], 'main');
    assert.deepEqual(refs, [{ ref: 'a', sha: sha('a'), prNumber: 1 }]);
  });

  it('a fork PR is keyed by its head ref alone; a PR from the default branch is left to the default-branch sync', () => {
    const refs = desiredRefs([], [{ number: 5, ref: 'patch-1', sha: sha('f') }, { number: 6, ref: 'main', sha: sha('e') }], 'main');
    assert.deepEqual(refs, [{ ref: 'patch-1', sha: sha('f'), prNumber: 5 }]);
  });
});
