// Every paper a comment or document cites by its seed number ("seed 003") or
// by a section of its digest ("digest §3.6", "digest section 4", "digest P6")
// has an entry in docs/references.md: the seed's full reference, and one line
// for each digest section cited. A citation is read as the seed named nearest
// above it (within 12 lines), else the only seed its file names; with no seed
// to go by, some seed's digest must have the section. Run as
// `node scripts/check-references.mjs` (prints what is missing, exit 1), or
// through tests/wasm/references.test.mjs in `npm test`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCANNED = ['core', 'server', 'web/src', 'wasm', 'tests', 'bench', 'docs', 'scripts', 'README.md'];
const SKIPPED = new Set(['node_modules', 'generated', 'dist']);
const EXTENSIONS = /\.(cc|h|cpp|js|mjs|md|sh|html|css)$/;
const REFERENCES = 'docs/references.md';
// This checker and its test quote the citation forms as examples.
const SELF = ['scripts/check-references.mjs', 'tests/wasm/references.test.mjs'];

const SEED = /\bseeds? (0\d\d)\b/gi;
const SEED_FILE = /\b(0\d\d)-[a-z-]+-digest\.md\b/g;
// "digest §3.6", "digest 6.9", "digest section 7.F", "digest sections 3.7-3.8", "digest §5, W4", "digest P6".
// A bare number must have a dot ("digest 6.9"), so that "the digest's 13 N sigma^2" is not read as a section.
const ID = String.raw`(?:\d+(?:\.(?:\d+|[A-Z]))?|[CPW]\d+)`;
const DOTTED = String.raw`(?:\d+\.(?:\d+|[A-Z])|[CPW]\d+)`;
const DIGEST = new RegExp(
  String.raw`\bdigest(?:'s)? (?:(?:§ ?|sections? )(${ID})|(${DOTTED}))((?:(?:, | and |-|–)§? ?${ID})*)`, 'g');

function filesUnder(relative) {
  const full = path.join(ROOT, relative);
  if (!fs.existsSync(full)) return [];
  if (fs.statSync(full).isFile()) return [relative];
  return fs.readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) return [];
    const child = path.join(relative, entry.name);
    return entry.isDirectory() ? filesUnder(child) : EXTENSIONS.test(entry.name) ? [child] : [];
  });
}

function seedsIn(text) {
  return [...text.matchAll(SEED), ...text.matchAll(SEED_FILE)].map((m) => m[1]);
}

// Every citation in the tree: {file, line, seed} and {file, line, seed|null, section}.
export function citations() {
  const seeds = [];
  const sections = [];
  for (const file of SCANNED.flatMap(filesUnder)) {
    if (file === REFERENCES || SELF.includes(file)) continue;
    const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    const fileSeeds = [...new Set(seedsIn(lines.join('\n')))];
    lines.forEach((text, i) => {
      for (const seed of seedsIn(text)) seeds.push({ file, line: i + 1, seed });
      for (const match of text.matchAll(DIGEST)) {
        const near = seedsIn(lines.slice(Math.max(0, i - 12), i + 1).join('\n')).pop();
        const seed = near ?? (fileSeeds.length === 1 ? fileSeeds[0] : null);
        const cited = (match[1] ?? match[2]) + match[3];
        for (const section of cited.match(new RegExp(ID, 'g'))) sections.push({ file, line: i + 1, seed, section });
      }
    });
  }
  return { seeds, sections };
}

// docs/references.md: "### Seed 00N" headings, and under each "- §X" (or "- P6") entries.
export function entries() {
  const seeds = new Set();
  const sections = new Set();
  let current = null;
  for (const line of fs.readFileSync(path.join(ROOT, REFERENCES), 'utf8').split('\n')) {
    const heading = line.match(/^###? Seed (0\d\d)\b/);
    if (heading) {
      current = heading[1];
      seeds.add(current);
      continue;
    }
    if (/^##? /.test(line)) current = null;
    const entry = line.match(new RegExp(String.raw`^- \*\*(?:§)?(${ID})\*\*`));
    if (entry && current) sections.add(`${current} ${entry[1]}`);
  }
  return { seeds, sections };
}

export function missing() {
  const cited = citations();
  const listed = entries();
  const problems = [];
  for (const { file, line, seed } of cited.seeds) {
    if (!listed.seeds.has(seed)) problems.push(`${file}:${line}: seed ${seed} has no "### Seed ${seed}" entry`);
  }
  for (const { file, line, seed, section } of cited.sections) {
    const found = seed ? listed.sections.has(`${seed} ${section}`) : [...listed.sections].some((s) => s.endsWith(` ${section}`));
    const label = /^\d/.test(section) ? `§${section}` : section;
    if (!found) problems.push(`${file}:${line}: digest ${label} (seed ${seed ?? '?'}) has no "- **${label}**" entry`);
  }
  return [...new Set(problems)];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = missing();
  for (const problem of problems) console.error(`check-references: ${problem}`);
  const { seeds, sections } = citations();
  if (problems.length > 0) process.exit(1);
  console.log(`check-references: ${seeds.length} seed and ${sections.length} digest citations, all in ${REFERENCES}`);
}
