// Builds the five pages of the Deniable web front end into web/dist:
// index.html, survey.html, dashboard.html, create.html and manage.html at the root, every
// script and stylesheet under /assets/. The C++ server serves that directory
// with a strict CSP (script-src 'self' 'wasm-unsafe-eval'; style-src 'self'),
// so nothing may be inlined into the HTML.
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

const webDir = fileURLToPath(new URL('.', import.meta.url));
const PAGES = ['index', 'survey', 'dashboard', 'create', 'manage'];

// The server maps /s/{id}, /results/{id}, /create and /manage onto the built pages;
// the dev server does the same so `npx vite --config web/vite.config.js`
// behaves like production (API calls are proxied to a server on :8080).
const PAGE_ROUTES = [
  [/^\/s\/[^/]+\/?(\?.*)?$/, '/survey.html'],
  [/^\/results\/[^/]+\/?(\?.*)?$/, '/dashboard.html'],
  [/^\/create\/?(\?.*)?$/, '/create.html'],
  [/^\/manage\/?(\?.*)?$/, '/manage.html'],
];

// The Emscripten module requires Node's fs/path only on its Node code path
// (tests, benchmarks); in the browser bundle they are never reached, so
// Vite's "externalized for browser compatibility" warning for exactly those
// imports is noise. Everything else is reported.
function isGeneratedCoreNodeBuiltinWarning(warning) {
  const message = String(warning.message ?? warning);
  return /Module "(fs|path)" has been externalized for browser compatibility/.test(message)
    && /generated\/deniable_(core|client)\.mjs/.test(message);
}

// See codeSplitting below. Each is small and used by several pages.
const COMMON_MODULES = new RegExp([
  String.raw`rolldown[\/]runtime`, String.raw`vite[\/]preload-helper`,
  String.raw`web[\/]src[\/]kinds[\/](registry|[^\/]+[\/]index)\.js$`,
  String.raw`web[\/]src[\/]central[\/]trust\.js$`,
  String.raw`web[\/]src[\/]shared[\/](api|dom|fatal|format|format-texts|i18n|location|open|rich-text)\.js$`,
  String.raw`web[\/]src[\/]wasm-loader\.js$`,
].join('|'));

function devPageRoutes() {
  return {
    name: 'deniable-dev-page-routes',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        for (const [pattern, page] of PAGE_ROUTES) {
          const match = pattern.exec(request.url);
          if (match) {
            request.url = page + (match[1] ?? '');
            break;
          }
        }
        next();
      });
    },
  };
}

export default defineConfig({
  root: webDir,
  base: '/',
  publicDir: false,
  plugins: [devPageRoutes()],
  build: {
    outDir: resolve(webDir, 'dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // Never turn assets into data: URIs or inline snippets (CSP).
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
    // The WebAssembly modules are files of their own (.wasm, not counted here);
    // the largest chunk is the dashboard's (Chart.js), about 320 kB.
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      input: Object.fromEntries(PAGES.map((page) => [page, resolve(webDir, `${page}.html`)])),
      output: {
        // The small modules the pages share (the dynamic-import helper, the
        // kinds' registry, the trust model, number formats and languages, the
        // address, the WebAssembly loader's helpers) as ONE chunk: split into five, the survey
        // page's first load asked for more files than a browser's six
        // connections carry at once, and the last ones waited a whole round
        // trip (about 250 ms on a 150 ms link; bench/page/run.sh).
        codeSplitting: {
          groups: [{ name: 'common', test: COMMON_MODULES }],
        },
      },
      onwarn(warning, report) {
        if (!isGeneratedCoreNodeBuiltinWarning(warning)) report(warning);
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
