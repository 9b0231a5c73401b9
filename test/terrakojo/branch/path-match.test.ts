// The golden table of upstream's glob semantics (bmatcuk/doublestar v4 Match), which the picomatch-based matcher
// must reproduce: every row is what doublestar answers for (pattern, repo-relative path).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { matchFiles, pathMatcher } from '../../../src/terrakojo/branch/path-match.ts';

const golden: [pattern: string, path: string, matches: boolean][] = [
  // `**` as a segment spans zero or more directories.
  ['**/*.tf', 'main.tf', true],
  ['**/*.tf', 'infra/app/main.tf', true],
  ['infrastructure/**/*.tf', 'infrastructure/app/main.tf', true],
  ['infrastructure/**/*.tf', 'infrastructure/main.tf', true],
  ['infrastructure/**/*.tf', 'other/app/main.tf', false],
  ['a/**/b', 'a/b', true],
  ['a/**/b', 'a/x/y/b', true],
  ['infra/**', 'infra/a/b.tf', true],
  // `*` and `?` stay within one segment.
  ['*.tf', 'main.tf', true],
  ['*.tf', 'a/main.tf', false],
  ['infra/*.tf', 'infra/a/main.tf', false],
  ['a?c', 'abc', true],
  ['a?c', 'a/c', false],
  // alternation and classes
  ['{a,b}/*.tf', 'a/main.tf', true],
  ['{a,b}/*.tf', 'b/main.tf', true],
  ['{a,b}/*.tf', 'c/main.tf', false],
  ['[ab]/*.tf', 'b/x.tf', true],
  ['[ab]/*.tf', 'c/x.tf', false],
  ['[a-c]/*.tf', 'c/x.tf', true],
  ['[!ab]/*.tf', 'c/x.tf', true],
  ['[!ab]/*.tf', 'a/x.tf', false],
  ['[^ab]/*.tf', 'a/x.tf', false],
  ['[^ab]/*.tf', 'c/x.tf', true],
  // dotfiles are ordinary files
  ['**/*.yml', '.github/workflows/ci.yml', true],
  ['*', '.env', true],
  ['**/.terraform/**', 'infra/.terraform/lock', true],
  ['docs/*', 'docs/.hidden', true],
  // no negation, no extglobs: literal characters to doublestar
  ['!a', '!a', true],
  ['!a', 'b', false],
  ['+(a)', '+(a)', true],
  ['+(a)', 'aa', false],
  // exact paths
  ['README.md', 'README.md', true],
  ['README.md', 'docs/README.md', false],
];

describe('path matching (doublestar semantics on picomatch)', () => {
  for (const [pattern, path, matches] of golden) {
    it(`${pattern} ${matches ? 'matches' : 'does not match'} ${path}`, () => {
      assert.equal(pathMatcher(pattern)(path), matches);
    });
  }

  it('keeps the files any pattern matches, in their order', () => {
    const files = ['README.md', 'infra/app/main.tf', 'docs/guide.md', 'infra/app/vars.tf'];
    assert.deepEqual(matchFiles(['**/*.tf'], files), ['infra/app/main.tf', 'infra/app/vars.tf']);
    assert.deepEqual(matchFiles(['**/*.md', 'infra/**/vars.tf'], files), ['README.md', 'docs/guide.md', 'infra/app/vars.tf']);
    assert.deepEqual(matchFiles([], files), []);
  });

  it('an empty pattern (picomatch refuses it) matches nothing and does not throw', () => {
    assert.equal(pathMatcher('')('main.tf'), false);
    assert.deepEqual(matchFiles(['', '*.tf'], ['main.tf', 'a.md']), ['main.tf']);
  });
});
