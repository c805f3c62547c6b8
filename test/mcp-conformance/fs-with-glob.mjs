// node:fs plus `globSync` (Node 22's fs.globSync), taken from the `glob` package.
import fs from 'node:fs';

export * from 'node:fs';
export { globSync } from 'glob';
export default fs;
