// Every seed and digest section cited in a comment or document has its entry in
// docs/references.md (scripts/check-references.mjs), and the checker can fail.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { citations, entries, missing } from '../../scripts/check-references.mjs';

test('every "seed 00N" and "digest §N" cited has an entry in docs/references.md', () => {
  assert.deepEqual(missing(), []);
});

test('the checker sees the citations: every seed, and sections of every digest', () => {
  const { seeds, sections } = citations();
  assert.deepEqual([...new Set(seeds.map((c) => c.seed))].sort(), ['000', '001', '002', '003', '004']);
  assert.ok(sections.length > 50, `only ${sections.length} digest citations found`);
  const listed = entries();
  assert.deepEqual([...listed.seeds].sort(), ['000', '001', '002', '003', '004']);
  // A section cited under a seed must be listed under that seed, not just anywhere.
  const resolved = sections.filter((c) => c.seed);
  assert.ok(resolved.every((c) => listed.sections.has(`${c.seed} ${c.section}`)));
});
