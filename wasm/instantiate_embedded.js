// --pre-js for wasm/build.sh: instantiate the embedded (SINGLE_FILE) binary
// directly from its decoded bytes.
//
// Why: Emscripten 3.1.6 first tries fetch() on the "data:" URL that holds the
// binary, which the pages' Content-Security-Policy (connect-src 'self')
// blocks and Chromium reports as a CSP violation before Emscripten falls
// back. Decoding the bytes ourselves needs no fetch at all, in browsers and in
// Node alike. tryParseAsDataURI, wasmBinaryFile and readyPromiseReject are
// Emscripten's own, in scope inside the module factory.
Module['instantiateWasm'] = function (imports, receiveInstance) {
  WebAssembly.instantiate(tryParseAsDataURI(wasmBinaryFile), imports).then(
    function (output) { receiveInstance(output['instance'], output['module']); },
    readyPromiseReject);
  return {};
};
