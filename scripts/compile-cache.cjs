/**
 * A V8 code cache for the suite's Node processes, loaded with `--require` (playwright.config.ts
 * adds it to NODE_OPTIONS, so every Playwright worker starts with it).
 *
 * Why: a Playwright worker spends about half a second compiling Playwright's own bundles (several
 * megabytes of JavaScript) before it runs a test, and the suite starts a worker per target, and
 * again after every failed test. V8 can save the compiled code and load it next time instead.
 * Node 22.1 and later do this themselves (module.enableCompileCache); on Node 20 this file does
 * it for CommonJS modules in node_modules, through vm.Script's cachedData, the way the
 * v8-compile-cache package does, but keeping dynamic import() working (which that package breaks),
 * and writing each cache as the process exits rather than right after compiling: V8 compiles a
 * function on its first call, so only then does the cache hold the code the process ran.
 *
 * Anything unexpected falls back to Node's own compilation: the cache can only make a process
 * start faster, never change what it runs. The cache lives in node_modules/.cache.
 */
'use strict';
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const crypto = require('node:crypto');
const v8 = require('node:v8');
const vm = require('node:vm');
const { threadId } = require('node:worker_threads');

const cacheDir = path.join(__dirname, '..', 'node_modules', '.cache', 'petstore-conformance', 'v8');

function install() {
  if (typeof Module.enableCompileCache === 'function') {
    Module.enableCompileCache(cacheDir);
    return;
  }
  const dynamicImport = vm.constants && vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  if (!dynamicImport) return;
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
  } catch {
    return;
  }
  const originalCompile = Module.prototype._compile;
  // Each kind of process (the runner, a worker, a loader thread: named by its entry script) runs
  // other functions of the same bundles, so each keeps its own cache of what it compiled.
  const role = `${path.basename(process.argv[1] || 'node')}-${threadId === 0 ? 'main' : 'thread'}`;
  // V8's own tag for a cache (its version, its flags, the CPU's features): runs with other V8
  // flags keep caches of their own, rather than each rejecting and rewriting the other's.
  const version = `${process.version}-${process.arch}-${role}-${v8.cachedDataVersionTag()}`;
  // Scripts compiled without a usable cache: theirs is written as the process exits, when it
  // holds every function the process ran (V8 compiles functions lazily, on their first call; a
  // cache made right after compiling would hold the top level only).
  const uncached = [];
  process.once('exit', () => {
    for (const { script, file } of uncached) {
      try {
        const temporary = `${file}.${process.pid}.${threadId}`;
        fs.writeFileSync(temporary, script.createCachedData());
        fs.renameSync(temporary, file);
      } catch {
        // a cache that cannot be written only costs the next start its speed
      }
    }
  });

  Module.prototype._compile = function compileWithCache(content, filename) {
    // Only the packages' own large files: they do not change between runs, and are where the
    // time goes. A file that imports dynamically from eval'd code is left to Node: on Node 20 a
    // vm.Script cannot hand that import a loader.
    if (!filename.includes(`${path.sep}node_modules${path.sep}`) || content.length < 20_000) {
      return originalCompile.call(this, content, filename);
    }
    // Keyed by the file's name, size and modification time, not a hash of its megabytes: every
    // process loads these, and hashing them cost more than a stat. An installed package's files
    // change only with a new size or time.
    let stat;
    try {
      stat = fs.statSync(filename);
    } catch {
      return originalCompile.call(this, content, filename);
    }
    const key = crypto
      .createHash('sha1')
      .update(`${version}\0${filename}\0${stat.size}\0${stat.mtimeMs}\0${content.length}`)
      .digest('hex');
    const file = path.join(cacheDir, `${key}.bin`);
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      cachedData = undefined;
      // A file cached before passed this check already (the same size and time: the same file).
      if (/eval\([^)]*import\(/.test(content)) return originalCompile.call(this, content, filename);
    }
    let script;
    try {
      script = new vm.Script(Module.wrap(content), {
        filename,
        cachedData,
        importModuleDynamically: dynamicImport,
      });
    } catch {
      return originalCompile.call(this, content, filename);
    }
    if (cachedData === undefined || script.cachedDataRejected) uncached.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true });
    // The module's own require, as Node makes it (lib/internal/modules/helpers.js).
    const moduleRequire = (id) => this.require(id);
    moduleRequire.resolve = (request, options) =>
      Module._resolveFilename(request, this, false, options);
    moduleRequire.resolve.paths = (request) => Module._resolveLookupPaths(request, this);
    moduleRequire.main = process.mainModule;
    moduleRequire.extensions = Module._extensions;
    moduleRequire.cache = Module._cache;
    return wrapper.call(
      this.exports,
      this.exports,
      moduleRequire,
      this,
      filename,
      path.dirname(filename),
    );
  };
}

if (!process.env.CONFORMANCE_NO_COMPILE_CACHE) install();
