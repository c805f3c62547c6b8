// The resolve hook registered by node20-fs-glob.mjs: `fs` imported from the conformance
// package becomes fs-with-glob.mjs. Every other import resolves as usual.
const FS_WITH_GLOB = new URL('./fs-with-glob.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if ((specifier === 'fs' || specifier === 'node:fs') && context.parentURL?.includes('/@modelcontextprotocol/conformance/')) {
    return { url: FS_WITH_GLOB, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
