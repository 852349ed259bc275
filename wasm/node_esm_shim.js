// --pre-js for wasm/build.sh: makes Emscripten 3.1.6's Node support fit an ES
// module that also runs in browsers. Both declarations are scoped to the
// module factory.
//
// __dirname: Emscripten assumes CommonJS under Node even with EXPORT_ES6 and
// reads __dirname to locate the .wasm file, which throws "ReferenceError:
// __dirname is not defined in ES module scope". The loaders
// (web/src/core.js, web/src/core-client.js) pass the .wasm's bytes as
// wasmBinary under Node, so that directory is never used.
var __dirname = '';
// require: Emscripten would require('fs') and require('path') only to read
// the .wasm from disk, which the loaders do themselves. A local binding keeps
// bundlers (Vite) from treating those calls as imports of Node built-ins.
var require = function (name) {
  throw new Error('deniable: require("' + name + '") is unavailable: the loader must pass wasmBinary under Node');
};
