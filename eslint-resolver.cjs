// Lets the module-boundary lint follow our imports: TypeScript sources import each other by
// their compiled names (`./service.js` for `./service.ts`, NodeNext style), which the Node
// resolver alone cannot find. Everything else goes to the Node resolver.
const { existsSync } = require('node:fs');
const { dirname, resolve } = require('node:path');
const node = require('eslint-import-resolver-node');

exports.interfaceVersion = 2;

exports.resolve = (source, file, config) => {
  if (source.startsWith('.') && source.endsWith('.js')) {
    const typescript = resolve(dirname(file), `${source.slice(0, -3)}.ts`);
    if (existsSync(typescript)) return { found: true, path: typescript };
  }
  return node.resolve(source, file, config);
};
