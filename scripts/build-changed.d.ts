// Types of build-changed.js (plain JavaScript, so `npm start` runs it with node alone).
export interface Target {
  name: string;
  /** Files and folders (walked) the build is made from, relative to the root. */
  inputs: string[];
  outDir: string;
  /** Files in outDir without which there is no build. */
  outputs: string[];
  hashFile: string;
}
export declare const TARGETS: Record<'server' | 'console', Target>;
export declare function sourceHash(root: string, inputs: string[]): string;
export declare function buildIfChanged(options: { root: string; target: Target; ifChanged: boolean; build: () => Promise<void> }): Promise<{ built: boolean; hash: string }>;
