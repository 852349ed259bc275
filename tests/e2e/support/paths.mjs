// Where the end-to-end tests find the repository, the server binary and the
// built pages.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
export const SERVER_BIN = resolve(REPO_ROOT, process.env.DENIABLE_BIN ?? 'build/deniable');
export const WEB_DIST = resolve(REPO_ROOT, 'web/dist');
export const DEMO_SURVEY = resolve(REPO_ROOT, 'examples/demo-survey.json');
export const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

// Fails early with the command that fixes the problem.
export function requireBuiltArtifacts() {
  if (!existsSync(SERVER_BIN)) {
    throw new Error(`server binary ${SERVER_BIN} not found: build it (bash scripts/build.sh) or set DENIABLE_BIN`);
  }
  for (const page of ['index.html', 'survey.html', 'dashboard.html', 'create.html']) {
    if (!existsSync(resolve(WEB_DIST, page))) {
      throw new Error(`web/dist/${page} not found: run \`npx vite build --config web/vite.config.js\` in ${REPO_ROOT}`);
    }
  }
}
