// What the two WebAssembly loaders share (web/src/core-client.js for the
// respondent's page, web/src/core.js for the builder): where the .wasm comes
// from, one memoised instance per loader, retiring an instance that aborted,
// and the checks on JavaScript arguments before they cross into the module.
// Imports nothing, so the survey page pulls in no part of the full module.

// Node's file API, named through a variable so that Vite leaves it alone (the
// browser never reaches this path).
const NODE_FS = 'node:fs/promises';

function inNode() {
  return typeof process === 'object' && typeof process.versions?.node === 'string';
}

// The Emscripten module options that make it find its .wasm. `wasmUrl` is the
// loader's `new URL('./generated/x.wasm', import.meta.url)`, which Vite turns
// into the content-hashed asset's URL. In the browser the module fetches that
// URL itself and compiles while the bytes stream in
// (WebAssembly.instantiateStreaming; the server answers application/wasm). In
// Node (tests, benches) fetch cannot read files: the bytes come from disk.
export async function wasmOptions(wasmUrl) {
  if (inNode()) {
    const { readFile } = await import(/* @vite-ignore */ NODE_FS);
    return { wasmBinary: await readFile(wasmUrl) };
  }
  return { locateFile: (path) => (path.endsWith('.wasm') ? wasmUrl.href : path) };
}

// A load function: the first call creates the module and binds its API, later
// calls share it. A failed creation is forgotten so that a later call
// retries; so is an instance that aborted (bind's `retire`).
export function memoisedLoader(create, bind) {
  let promise = null;
  let live = null;
  const retire = (module) => {
    if (live === module) {
      live = null;
      promise = null;
    }
  };
  return function load() {
    if (!promise) {
      promise = (async () => {
        const module = await create();
        live = module;
        return bind(module, () => retire(module));
      })().catch((error) => {
        promise = null;
        throw error;
      });
    }
    return promise;
  };
}

// Runs one call into a module. A JavaScript exception out of it means the
// module aborted (a core bug, or no Web Crypto): its state is undefined, so
// the instance refuses every later call and is retired; `loaderName`'s next
// call builds a fresh one.
export function abortGuard(retire, loaderName) {
  let aborted = null;
  return (run) => {
    if (aborted) throw new Error(`the WebAssembly core aborted earlier (${aborted}); call ${loaderName}() again`);
    try {
      return run();
    } catch (error) {
      aborted = error.message;
      retire();
      throw new Error(`the WebAssembly core aborted: ${error.message}`, { cause: error });
    }
  };
}

// Unwraps the module's JSON envelope: the value, or an Error with core's message.
export function unwrap(envelopeText) {
  const envelope = JSON.parse(envelopeText);
  if (!envelope.ok) throw new Error(envelope.error);
  return envelope.value;
}

// JSON text for the module. JSON.stringify returns undefined for values JSON
// cannot hold at the top level (undefined, functions, symbols).
export function jsonText(value, name) {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError(`${name} must be a JSON value, but is ${typeof value}`);
  return text;
}

// Hex arguments: only the JS type is checked here; the module checks the digits and lengths.
export function text(value, name) {
  if (typeof value !== 'string') throw new TypeError(`${name} must be a string, but is ${typeof value}`);
  return value;
}

// Seeds are decimal strings: they go up to 2^64 - 1, beyond exact JS numbers.
// The module checks the digits.
export function seedText(seed) {
  if (typeof seed !== 'string') throw new TypeError(`seed must be a decimal string, but is ${typeof seed}`);
  return seed;
}

// The module checks ranges and integrality; only the JS type is checked here,
// so that "5" is an error rather than silently converted.
export function number(value, name) {
  if (typeof value !== 'number') throw new TypeError(`${name} must be a number, but is ${typeof value}`);
  return value;
}
